"""`python -m kb ingest|stats|delete` as a user runs it.

The commands run in this process through kb.cli.main, which `python -m kb` calls (kb/__main__.py), with its exit code
and what it prints; one test runs `python -m kb` itself, so the entry point and its exit code are covered too (a new
interpreter per command made this module 30 s long).
"""
from __future__ import annotations

import contextlib
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from kb.cli import main

from tests.conftest import ROOT, SHARED_CORPUS, needs_shared_corpus

HOTEL = SHARED_CORPUS / "zh_plan_sheraton_xian_2024.txt"
LICENCE = SHARED_CORPUS / "zh_rule_jiashizheng_shenling_2021_dangling_refs.md"


@pytest.fixture(autouse=True)
def _no_annex_settings(monkeypatch):
    """The commands see the environment of a user who set nothing."""
    for name in [k for k in os.environ if k.startswith("ANNEX_")]:
        monkeypatch.delenv(name)


def _kb(*args: str | Path, store: Path) -> subprocess.CompletedProcess[str]:
    """One command as `python -m kb` runs it: its exit code, stdout and stderr."""
    argv = [*map(str, args), "--store", str(store)]
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(argv)
    return subprocess.CompletedProcess(["python", "-m", "kb", *argv], code, out.getvalue(), err.getvalue())


@needs_shared_corpus
def test_ingest_json_stats_and_delete(tmp_path):
    store = tmp_path / "store"
    bad = tmp_path / "notes.pptx"
    bad.write_bytes(b"x")
    run = _kb("ingest", HOTEL, LICENCE, bad, "--library", "shared", "--json", store=store)
    assert run.returncode == 1, run.stderr  # one file failed; the others were ingested
    rows = [json.loads(line) for line in run.stdout.splitlines()]
    by_file = {row["file"]: row for row in rows}
    hotel = by_file[HOTEL.name]
    assert [a["label"] for a in hotel["attachments"]] == [f"附件{i}" for i in range(1, 9)]
    assert hotel["attachments"][3] == {"label": "附件4", "title": "应急物资装备清单"}
    assert [(r["source"], r["target"]) for r in hotel["references"]] == [("body", "附件4")] * 3
    assert hotel["dangling"] == [] and hotel["error"] is None
    assert by_file[LICENCE.name]["dangling"] == ["附件1", "附件2", "附件3", "附件4"]
    assert by_file["notes.pptx"]["doc_id"] is None and "unsupported file type .pptx" in by_file["notes.pptx"]["error"]
    assert "chunks/s" in run.stderr

    stats = json.loads(_kb("stats", store=store).stdout)
    assert stats["documents"] == 2 and stats["attachments"] == 8 and stats["dangling"] == 4
    assert stats["vectors_annex_body"] + stats["vectors_annex_attachments"] == stats["chunks"]

    deleted = _kb("delete", HOTEL.name, "--library", "shared", store=store)
    assert deleted.returncode == 0 and hotel["doc_id"] in deleted.stdout
    stats = json.loads(_kb("stats", store=store).stdout)
    assert stats["documents"] == 1 and stats["attachments"] == 0
    missing = _kb("delete", "nothing.md", store=store)
    assert missing.returncode == 1 and "no document 'nothing.md'" in missing.stderr


def test_a_bad_setting_is_one_error_line_naming_the_variable(tmp_path):
    env = {**{k: v for k, v in os.environ.items() if not k.startswith("ANNEX_")}, "ANNEX_EMBEDDING": "foo"}
    run = subprocess.run([sys.executable, "-m", "kb", "stats", "--store", str(tmp_path / "store")],
                         cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert run.returncode == 2
    assert run.stderr.startswith("error: ANNEX_EMBEDDING='foo'") and "Traceback" not in run.stderr


def test_the_cli_cannot_write_into_a_private_library_name(tmp_path):
    doc = tmp_path / "plan.md"
    doc.write_text("# 预案\n\n正文。\n", encoding="utf-8")
    run = _kb("ingest", doc, "--library", "session-abc", store=tmp_path / "store")
    assert run.returncode == 2 and "reserved for visitors' private libraries" in run.stderr
    assert "Traceback" not in run.stderr
    stats = _kb("stats", store=tmp_path / "store")
    assert "session-abc" not in stats.stdout
