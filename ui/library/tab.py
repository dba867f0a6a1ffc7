"""The knowledge-base tab: upload, the document list, one document's view, delete, and the library's graph."""
from __future__ import annotations

import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Sequence

import gradio as gr
import plotly.graph_objects as go

from kb.ingest.parsing import SUPPORTED_EXTENSIONS
from kb.service import Service
from ui.library.render import DOCUMENT_COLUMNS, document_choices, document_rows, document_view_html, ingest_results_html
from ui.library.figure import DEFAULT_DOCUMENTS, MAX_DOCUMENTS, library_figure, select_documents

ALL_LIBRARIES = "全部"
ProgressFn = Callable[..., object]


class KnowledgeBase:
    """The tab's handlers over the service's ingestor and graph store (no UI state of their own)."""

    def __init__(self, service: Service) -> None:
        self.service = service

    def ingest(self, files: Sequence[str] | None, library: str, tags: str, progress: ProgressFn | None = None) -> str:
        """Ingest uploaded files together (so attachment files meet their parent); HTML of one result per file."""
        if not files:
            raise gr.Error("先选择要上传的文件（.docx / .md / .txt，可多选）。")
        library = (library or "").strip() or self.service.settings.default_library
        tag_list = tuple(t for t in (tags or "").replace("，", ",").split(",") if t.strip())
        with tempfile.TemporaryDirectory(prefix="annex-upload-") as batch:
            paths = []
            for f in files:
                target = Path(batch) / Path(f).name
                shutil.copyfile(f, target)
                paths.append(target)

            def report(done: int, total: int, what: str) -> None:
                if progress is not None:
                    progress(done / max(1, total), desc=what)

            results = self.service.stores.ingestor.ingest(paths, library, report, tuple(t.strip() for t in tag_list))
        return ingest_results_html(results)

    def listing(self) -> tuple[list[list], list[tuple[str, str]]]:
        """Rows of the document table and the selector's choices."""
        graph = self.service.stores.graph
        summaries = graph.list_documents()
        return document_rows(summaries, graph.list_attachments()), document_choices(summaries)

    def view(self, doc_id: str | None) -> str:
        """HTML of one document."""
        return document_view_html(self.service.stores.graph.load_document(doc_id) if doc_id else None)

    def delete(self, doc_id: str) -> str:
        """Delete a document from both stores; a message saying what happened."""
        summary = next((s for s in self.service.stores.graph.list_documents() if s.id == doc_id), None)
        if not self.service.stores.ingestor.delete(doc_id):
            raise gr.Error(f"文档 {doc_id} 已不在知识库中。")
        return f"已删除《{summary.title if summary else doc_id}》及其附件、片段和向量。"

    def libraries(self) -> list[str]:
        """The libraries that hold documents, sorted."""
        return sorted({s.library for s in self.service.stores.graph.list_documents()})

    def picture(self, query: str = "", library: str = ALL_LIBRARIES, limit: int = DEFAULT_DOCUMENTS) -> go.Figure:
        """The library graph of the documents the filter selects, capped at `limit` documents."""
        graph = self.service.stores.graph
        summaries = graph.list_documents(None if library in (None, "", ALL_LIBRARIES) else library)
        selection = select_documents(summaries, graph.list_attachments() if query.strip() else [], query, int(limit))
        docs = [d for s in selection.summaries if (d := graph.load_document(s.id)) is not None]
        return library_figure(docs, selection)


@dataclass
class KnowledgeTab:
    """The tab's handlers, the events after which the rest of the UI should refresh its library list, and
    `refresh(fn, outputs)`: what to run when the tab is shown (another session may have changed the library)."""

    changed: list  # Dependency objects of ingest and delete
    handlers: KnowledgeBase
    refresh: tuple


def build_knowledge_tab(service: Service) -> KnowledgeTab:
    """Lay out the tab inside the current Blocks context (a gr.Tab) and wire its events."""
    kb = KnowledgeBase(service)
    rows, choices = kb.listing()
    libraries = kb.libraries()
    with gr.Row(equal_height=False):
        with gr.Column(scale=4):
            gr.Markdown("### 上传文档\n`.docx` / `.md` / `.txt`，可一次多选。附件单独成文件时命名为"
                        "`附件3-名称.md` 或 `<文档名>-附件3-名称.docx`，与主文档一起上传。")
            files = gr.File(file_count="multiple", file_types=sorted(SUPPORTED_EXTENSIONS), label="文件", height=150)
            with gr.Row():
                library = gr.Textbox(service.settings.default_library, label="库", scale=1)
                tags = gr.Textbox(label="标签（逗号分隔，可空）", scale=1)
            upload = gr.Button("入库", variant="primary")
            results = gr.HTML(elem_id="kb-results", js_on_load=None)
        with gr.Column(scale=6):
            gr.Markdown("### 文档")
            table = gr.Dataframe(value=rows, headers=DOCUMENT_COLUMNS, interactive=False, wrap=True, max_height=300,
                                 elem_id="kb-documents")
            with gr.Row():
                selected = gr.Dropdown(choices, value=None, label="查看文档", scale=4)
                delete = gr.Button("删除该文档", variant="stop", scale=1)
            message = gr.Markdown()
            view = gr.HTML(kb.view(None), elem_id="kb-document", js_on_load=None)
    gr.Markdown("### 知识库图谱：每个文档居中，附件围成一圈，橙色箭头是 REFERENCES 引用，红叉是悬空引用")
    with gr.Row():
        query = gr.Textbox(label="筛选（文档名、附件编号或名称）", scale=3)
        lib_filter = gr.Dropdown([ALL_LIBRARIES, *libraries], value=ALL_LIBRARIES, label="库", scale=1)
        limit = gr.Slider(1, MAX_DOCUMENTS, DEFAULT_DOCUMENTS, step=1, label="最多显示文档数", scale=2)
    picture = gr.Plot(kb.picture(), elem_id="kb-graph", show_label=False)

    def refresh():
        rows, choices = kb.listing()
        return rows, gr.update(choices=choices), gr.update(choices=[ALL_LIBRARIES, *kb.libraries()])

    def refresh_all(query, library, limit):
        return *refresh(), kb.picture(query, library, limit)

    def run_ingest(files, library, tags, progress=gr.Progress()):
        return kb.ingest(files, library, tags, progress)

    def run_delete(doc_id):
        if not doc_id:  # nothing selected, or the confirmation was cancelled
            gr.Warning("没有删除：未选择文档，或已取消。")
            return gr.skip(), gr.skip(), gr.skip()
        return kb.delete(doc_id), gr.update(value=None), kb.view(None)

    picture_inputs = [query, lib_filter, limit]
    listing_outputs = [table, selected, lib_filter]
    ingested = (upload.click(run_ingest, [files, library, tags], results, api_visibility="private")
                .success(refresh, None, listing_outputs, api_visibility="private")
                .then(kb.picture, picture_inputs, picture, api_visibility="private"))
    deleted = (delete.click(run_delete, selected, [message, selected, view], api_visibility="private",
                            js="(d) => (d && confirm('从知识库删除这个文档（含附件、片段和向量）？')) ? d : null")
               .success(refresh, None, listing_outputs, api_visibility="private")
               .then(kb.picture, picture_inputs, picture, api_visibility="private"))
    selected.input(kb.view, selected, view, api_visibility="private")
    table.select(_row_doc, None, selected, api_visibility="private").then(kb.view, selected, view, api_visibility="private")
    gr.on([query.submit, lib_filter.input, limit.release], kb.picture, picture_inputs, picture, api_visibility="private")
    return KnowledgeTab([ingested, deleted], kb, (refresh_all, picture_inputs, [*listing_outputs, picture]))


def _row_doc(evt: gr.SelectData) -> str | None:
    """The id (last column) of the clicked document row."""
    row = evt.row_value or []
    return row[-1] if row else None
