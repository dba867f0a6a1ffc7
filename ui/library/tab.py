"""The knowledge-base tab: upload, the document list, one document's view, delete, and the library's graph.

Who may write is decided here, server-side, in every handler (a Gradio event can be sent without the page:
`POST /gradio_api/queue/join` with any inputs): without the token an upload goes into the session's private
library, identified by the request's session hash, never by an input; the shared libraries change only with
ANNEX_API_TOKEN typed into the token field; a delete needs its confirmation box ticked, checked here too.
"""
from __future__ import annotations

import threading
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterator, Sequence

import gradio as gr
import plotly.graph_objects as go

from kb.errors import ReservedLibrary, TooManyTokens, UploadLimit
from kb.ingest.formats import SHOWN, SUPPORTED_EXTENSIONS
from kb.service import Service
from kb.session_libraries import check_shared_name, is_private
from ui.library.render import (DOCUMENT_COLUMNS, ShownUpload, destination_html, document_choices, document_rows,
                               document_view_html, library_choices, lifetime, result_lines)
from kb.ingest.uploads import check_free_disk, ingest_uploads
from ui.library.figure import DEFAULT_DOCUMENTS, MAX_DOCUMENTS, library_figure, select_documents
from ui.client import client_address
from ui.safe import error, inform, warn
from ui.uploaded import SessionUploads, UploadedFile, discard_uploads
from ui.writer_pass import PASS_JS

ALL_LIBRARIES = "全部"
# DOCUMENT_COLUMNS' widths (px, 720 in all): every column in view on a laptop, the file name and its attachments
# widest; a phone scrolls the list sideways. Without widths Gradio sizes them by content and 附件 runs off the edge;
# percentages would squeeze a phone's columns to a character each.
COLUMN_WIDTHS = [150, 86, 36, 72, 158, 44, 52, 44, 78]
ProgressFn = Callable[..., object]
# Uploads handled at once. Gradio's default of one made every visitor's upload wait, without a word, behind whichever
# ran: a shared bulk ingest took minutes. Shared ingests still run one at a time (SharedTurn below), so a bulk ingest
# holds one worker and visitors' private uploads, each bounded by ANNEX_SESSION_MAX_MB, share the others; they wait
# for a bulk ingest's store write only between its batches (kb/ingest/ingestor.py WRITE_BATCH).
UPLOAD_WORKERS = 3
SHARED_WAIT_SECONDS = 1.0  # a shared ingest waiting for another says so this often
WAITING_FOR_SHARED = "等待另一个共享库入库完成后开始（共享库一次入库一批）…"


class KnowledgeBase:
    """The tab's handlers over the service's stores; `session` is the Gradio session hash of the caller."""

    def __init__(self, service: Service, uploads: SessionUploads | None = None) -> None:
        self.service = service
        self.sessions = service.sessions
        self._shared = threading.Lock()  # shared-library ingests, one at a time
        self.uploads = uploads or SessionUploads()  # files the pages uploaded (and have not ingested yet)

    def ingest(self, session: str | None, files: Sequence[str] | None, library: str, tags: str, token: str = "",
               progress: ProgressFn | None = None, client: str = "") -> str:
        """Ingest uploaded files together (so attachment files meet their parent); HTML of one result per file.

        With the token they go into the shared `library`; without it into the session's private library.
        """
        return self.upload(session, files, library, tags, token, progress, client).html()

    def upload(self, session: str | None, files: Sequence[str] | None, library: str, tags: str, token: str = "",
               progress: ProgressFn | None = None, client: str = "") -> ShownUpload:
        """`ingest`, as what the results panel shows: kept by the page, so a line can say 已删除 later."""
        if not files:
            raise error(f"先选择要上传的文件（{SHOWN}，可多选）。")
        shared = bool(_text(token))
        if shared:
            self.check_token(token, client)
            try:
                library = check_shared_name(_text(library) or self.service.settings.default_library)
            except ReservedLibrary as exc:
                raise error(f"“{library}”不能作共享库名：以 session- 开头的名字留给访客的私有库。") from exc
        elif not session:
            raise error("这次上传没有浏览器会话，无法放进私有库：请刷新页面后重新上传。")
        sizes = [_size(f) for f in files]
        try:
            check_free_disk(self.service.settings.store_dir, sum(sizes), self.service.settings.min_free_disk_mb)
            if not shared:
                library = self.sessions.library_for_upload(session or "", sizes)
        except UploadLimit as exc:
            discard_uploads(files)  # refused: Gradio's copies go too, nothing of the upload is kept
            raise error(str(exc)) from exc
        tag_list = tuple(t.strip() for t in _text(tags).replace("，", ",").split(",") if t.strip())

        def report(done: int, total: int, what: str) -> None:
            if progress is not None:
                progress(done / max(1, total), desc=what)

        sent = [(Path(f).name, Path(f)) for f in files]  # Gradio's temporary copies, named as the user's files
        try:
            room = None if shared else self.sessions.text_room(library)
            with self._one_shared(shared, report):
                results = ingest_uploads(self.service.stores.ingestor, self.service.settings.store_dir, sent, library,
                                         report, tag_list, room)
        finally:
            discard_uploads(files)  # the stores hold the text now; Gradio would serve its copy at /gradio_api/file=
        head = destination_html(library if shared else None, self.service.settings.session_library_ttl_min)
        failed = sum(1 for r in results if r.status == "error")
        # said where the eye is too: on a phone the results below the button are a screen away
        (warn if failed else inform)(f"入库完成：{len(results) - failed} 个文件成功，{failed} 个失败，详情见“入库”按钮下方。")
        return ShownUpload(head, result_lines(results))

    def results(self, shown: ShownUpload | None) -> Any:
        """The results panel again, each line whose document has been deleted since saying 已删除."""
        if not isinstance(shown, ShownUpload):  # no upload on this page yet
            return gr.skip()
        return shown.html(self.service.read.current().documents)

    @contextmanager
    def _one_shared(self, shared: bool, report: Callable[[int, int, str], None]) -> Iterator[None]:
        """A shared ingest waits, saying so, for the one running; a private upload never waits here."""
        if not shared:
            yield
            return
        while not self._shared.acquire(timeout=SHARED_WAIT_SECONDS):
            report(0, 1, WAITING_FOR_SHARED)
        try:
            yield
        finally:
            self._shared.release()

    def check_token(self, token: str, client: str = "") -> None:
        """Refuse a shared-library write unless `token` is the server's ANNEX_API_TOKEN (`client`: its address)."""
        expected = self.service.settings.api_token
        if not expected:
            raise error("共享库的写入已关闭：服务器没有设置 ANNEX_API_TOKEN。不填口令，上传的文件进入本会话的私有库。")
        try:
            right = self.service.tokens.matches(client, _text(token), expected)
        except TooManyTokens as exc:
            raise error(f"口令错误次数太多：请 {exc.retry_after} 秒后再试。") from exc
        if not right:
            raise error("口令不对：共享库只能用服务器的 ANNEX_API_TOKEN 修改。")

    def listing(self, session: str | None) -> tuple[list[list], list[tuple[str, str]]]:
        """Rows of the document table and the selector's choices: the shared documents and the session's own."""
        graph = self.service.stores.graph
        summaries = self.visible_documents(session, graph.list_documents())
        return document_rows(summaries, graph.list_attachments()), document_choices(summaries)

    def visible_documents(self, session: str | None, summaries: Sequence[Any]) -> list[Any]:
        """The summaries of libraries the session may see."""
        visible = set(self.sessions.visible(session, {s.library for s in summaries}))
        return [s for s in summaries if s.library in visible]

    def view(self, session: str | None, doc_id: str | None) -> str:
        """HTML of one document (the empty view for one the session may not see)."""
        doc = self.service.stores.graph.load_document(doc_id) if isinstance(doc_id, str) and doc_id else None
        return document_view_html(doc if doc is not None and self.sessions.may_see(session, doc.library) else None)

    def delete(self, session: str | None, doc_id: str | None, confirmed: bool, token: str = "", client: str = "") -> str:
        """Delete a document from both stores once confirmed; shared documents need the token."""
        if not isinstance(doc_id, str) or not doc_id:
            raise error("没有删除：先在“查看文档”里选择一个文档。")
        if confirmed is not True:
            raise error("没有删除：先勾选“确认删除”。")
        summary = self.service.read.current().documents.get(doc_id)
        if summary is None or not self.sessions.may_see(session, summary.library):
            raise error(f"文档 {doc_id} 已不在知识库中。")
        if not is_private(summary.library):
            self.check_token(token, client)
        private = is_private(summary.library)  # its quotes in conversations go with it
        if not (self.sessions.delete(doc_id) if private else self.service.stores.ingestor.delete(doc_id)):
            raise error(f"文档 {doc_id} 已不在知识库中。")
        return f"已删除《{summary.title}》及其附件、片段和向量。"

    def libraries(self, session: str | None) -> list[str]:
        """The libraries the session may see that hold documents: shared ones sorted, then its own."""
        return self.sessions.visible(session, self.service.read.current().libraries)

    def picture(self, session: str | None, query: str = "", library: str = ALL_LIBRARIES,
                limit: int = DEFAULT_DOCUMENTS) -> go.Figure:
        """The library graph of the visible documents the filter selects, capped at `limit` documents."""
        graph = self.service.stores.graph
        summaries = self.visible_documents(
            session, graph.list_documents(None if library in (None, "", ALL_LIBRARIES) else library))
        query = _text(query)
        selection = select_documents(summaries, graph.list_attachments() if query.strip() else [], query, int(limit))
        docs = [d for s in selection.summaries if (d := graph.load_document(s.id)) is not None]
        return library_figure(docs, selection)

    def end_session(self, request: gr.Request) -> None:
        """Gradio's unload: the browser session ended, its private library and the uploads it had not ingested go."""
        self.sessions.end(request.session_hash)
        self.uploads.release(request.session_hash)


@dataclass
class KnowledgeTab:
    """The tab's handlers, the events after which the rest of the UI should refresh its library list, and
    `refresh(fn, outputs)`: what to run when the tab is shown (another session may have changed the library)."""

    changed: list  # Dependency objects of ingest and delete
    handlers: KnowledgeBase
    refresh: tuple
    deleted: Any  # the delete's last Dependency: the chat empties after it if its conversation went


# On a phone the whole-library graph is a knot: the document list above says the same, one row per document.
PHONE_NOTE = "**知识库图谱**在手机上看不清，已收起：每个文档的附件和悬空引用见上面的“文档”列表；在电脑上打开可看图谱。"


def build_knowledge_tab(service: Service, uploads: SessionUploads | None = None) -> KnowledgeTab:
    """Lay out the tab inside the current Blocks context (a gr.Tab) and wire its events; `uploads`: the app's
    SessionUploads, released at the unload.

    Long on purpose: Gradio wires events to components in the Blocks context they were made in, so the layout and
    its wiring sit in one function; the handlers are KnowledgeBase's methods above.
    """
    kb = KnowledgeBase(service, uploads)
    rows, choices = kb.listing(None)  # what every new page shows: the shared libraries
    libraries = kb.libraries(None)
    ttl = service.settings.session_library_ttl_min
    with gr.Row(equal_height=False):
        with gr.Column(scale=4):
            gr.Markdown(f"### 上传文档\n{SHOWN}，可一次多选（PDF 扫描页需 OCR 扩展）。附件单独成文件时命名为"
                        "`附件3-名称.md` 或 `<文档名>-附件3-名称.xlsx`，与主文档一起上传。\n\n"
                        f"不填口令：文件进入**本会话的私有库**，只有这个页面能看到、检索和删除，{lifetime(ttl)}。"
                        "填入口令（ANNEX_API_TOKEN）：写入下面的共享库。")
            files = UploadedFile(file_count="multiple", file_types=sorted(SUPPORTED_EXTENSIONS), label="文件", height=150)
            with gr.Row():
                library = gr.Textbox(service.settings.default_library, label="共享库（需口令）", scale=1)
                tags = gr.Textbox(label="标签（逗号分隔，可空）", scale=1)
            token = gr.Textbox(label="口令（改动共享库时填写；留空 = 本会话私有库）", type="password",
                               elem_id="kb-token")
            upload = gr.Button("入库", variant="primary")
            results = gr.HTML(elem_id="kb-results", js_on_load=None)
            shown_upload = gr.State(None)  # the last upload's lines, to mark a deleted document's 已删除
        with gr.Column(scale=6):
            gr.Markdown("### 文档")
            table = gr.Dataframe(value=rows, headers=DOCUMENT_COLUMNS, interactive=False, wrap=True, max_height=300,
                                 column_widths=COLUMN_WIDTHS, elem_id="kb-documents")
            with gr.Row():
                selected = gr.Dropdown(choices, value=None, label="查看文档", scale=4)
                with gr.Column(scale=2, min_width=160):
                    confirm = gr.Checkbox(False, label="确认删除（含附件、片段和向量）", elem_id="kb-confirm")
                    delete = gr.Button("删除该文档", variant="stop")
            message = gr.Markdown()
            view = gr.HTML(kb.view(None, None), elem_id="kb-document", js_on_load=None)
    gr.Markdown("### 知识库图谱：每个文档居中，附件围成一圈，橙色箭头是 REFERENCES 引用，红叉是悬空引用",
                elem_classes=["annex-wide-only"])
    gr.Markdown(PHONE_NOTE, elem_classes=["annex-phone-only"])
    with gr.Row(elem_classes=["annex-wide-only"]):
        query = gr.Textbox(label="筛选（文档名、附件编号或名称）", scale=3)
        lib_filter = gr.Dropdown(_filter_choices(libraries), value=ALL_LIBRARIES, label="库", scale=1)
        limit = gr.Slider(1, MAX_DOCUMENTS, DEFAULT_DOCUMENTS, step=1, label="最多显示文档数", scale=2)
    picture = gr.Plot(kb.picture(None), elem_id="kb-graph", show_label=False, elem_classes=["annex-wide-only"])

    # Each wrapper takes the session from gr.Request: Gradio fills it from the connection, not from the inputs.
    hops = kb.service.settings.proxy_hops
    def refresh(request: gr.Request):
        rows, choices = kb.listing(request.session_hash)
        return rows, gr.update(choices=choices), gr.update(choices=_filter_choices(kb.libraries(request.session_hash)))

    def draw(query, library, limit, request: gr.Request):
        return kb.picture(request.session_hash, query, library, limit)

    def refresh_all(query, library, limit, shown, request: gr.Request):
        return *refresh(request), draw(query, library, limit, request), kb.results(shown)

    def run_ingest(files, library, tags, token, request: gr.Request, progress=gr.Progress()):
        shown = kb.upload(request.session_hash, files, library, tags, token, progress, _client(request, hops))
        return shown.html(), shown

    def run_delete(doc_id, confirmed, token, request: gr.Request):
        done = kb.delete(request.session_hash, doc_id, confirmed, token, _client(request, hops))
        return done, gr.update(value=None), kb.view(None, None), False

    def show(doc_id, request: gr.Request):
        return kb.view(request.session_hash, doc_id)

    picture_inputs = [query, lib_filter, limit]
    listing_outputs = [table, selected, lib_filter]
    # show_progress="full": while an upload waits in Gradio's queue the results panel shows its place (队列 2/3) and,
    # once running, the ingest's own progress
    sent = upload.click(run_ingest, [files, library, tags, token], [results, shown_upload],
                        api_visibility="private", concurrency_limit=UPLOAD_WORKERS, concurrency_id="ingest",
                        show_progress="full")
    sent.then(lambda: None, None, files, api_visibility="private")  # the server removed its copies: pick anew

    kb.uploads.watch(files, "hold")  # uploaded, not ingested yet: deleted if the tab closes first
    # a typed token, checked once by the server, lets the files chosen next past the per-visitor upload share
    gr.on([token.blur, token.submit], None, token, None, js=PASS_JS, api_visibility="private")
    ingested = (sent.success(refresh, None, listing_outputs, api_visibility="private")
                .then(draw, picture_inputs, picture, api_visibility="private"))
    deleted = (delete.click(run_delete, [selected, confirm, token], [message, selected, view, confirm],
                            api_visibility="private")
               .success(refresh, None, listing_outputs, api_visibility="private")
               .then(kb.results, shown_upload, results, api_visibility="private", show_progress="hidden")
               .then(draw, picture_inputs, picture, api_visibility="private"))
    selected.input(show, selected, view, api_visibility="private")
    table.select(_row_doc, None, selected, api_visibility="private").then(show, selected, view, api_visibility="private")
    gr.on([query.submit, lib_filter.input, limit.release], draw, picture_inputs, picture, api_visibility="private")
    return KnowledgeTab([ingested, deleted], kb,
                        (refresh_all, [*picture_inputs, shown_upload], [*listing_outputs, picture, results]), deleted)


def _size(name: str) -> int:
    """An uploaded file's size in bytes; 0 if Gradio's copy is gone (its ingest then reports the file)."""
    try:
        return Path(name).stat().st_size
    except OSError:
        return 0


def _filter_choices(libraries: Sequence[str]) -> list[tuple[str, str]]:
    """The graph filter's choices: all, then each library by its shown name."""
    return [(ALL_LIBRARIES, ALL_LIBRARIES), *library_choices(libraries)]


def _client(request: gr.Request, hops: int) -> str:
    """Whom wrong tokens are counted against: the caller's address, behind `hops` trusted proxies (ui/client.py)."""
    return client_address(request.client.host if request.client else "", request.headers, hops)


def _text(value: object) -> str:
    """A text input as str: a request sent without the page may put anything in a field."""
    return value.strip() if isinstance(value, str) else ""


def _row_doc(evt: gr.SelectData) -> str | None:
    """The id (last column) of the clicked document row."""
    row = evt.row_value or []
    return row[-1] if row else None
