"""annex-rag: read settings, open the stores once, sync the bundled corpus, serve the UI and the API."""
from __future__ import annotations

import sys

from kb.ingest.sync import sync_corpus
from kb.progress import progress_bar
from kb.service import open_service
from kb.settings import load_settings
from ui.mcp import register_tools
from ui.server import build_app, server


def main() -> None:
    settings = load_settings()
    service = open_service(settings)
    with progress_bar(f"building the knowledge base from {settings.corpus_dir}") as progress:
        report = sync_corpus(service.stores.ingestor, settings.corpus_dir, settings.default_library, progress)
    print(f"knowledge base: {report.summary()}", file=sys.stderr)
    for error in report.errors:
        print(f"  ✗ {error}", file=sys.stderr)
    extensions = [lambda: register_tools(service)] if settings.mcp_server else []
    try:
        server(build_app(service, extensions), settings.server_host, settings.server_port).run()
    finally:
        service.close()


if __name__ == "__main__":
    main()
