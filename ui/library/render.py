"""Pure renderers of the knowledge-base tab: ingest results, the document list, one document's view."""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from types import MappingProxyType
from typing import Container, Sequence

from graph.store import AttachmentInfo, DocumentSummary
from kb.model import BODY, Document, IngestResult
from kb.model import is_private
from kb.ingest.formats import SHOWN, format_of
from kb.settings import Settings
from ui.icons import icon
from ui.library.failures import reason
from ui.safe import clip, h

STATUS = MappingProxyType({
    "ingested": ("✓", "已入库", "ok"),
    "attached": ("↳", "作为附件并入", "ok"),
    "unchanged": ("=", "未变化，跳过", "same"),
    "error": ("✗", "失败", "error"),
})
DOCUMENT_COLUMNS = ["文档", "格式", "页数", "库", "附件", "片段", "悬空引用", "标签", "id"]
TEXT_PREVIEW = 20000  # characters of a document's text shown in its view
PRIVATE_LIBRARY = "本会话私有库"  # how the session's own private library is shown


BUNDLED_LIBRARY = "示例库"  # the bundled corpus's library under its default name (Settings.default_library)


def library_label(library: str) -> str:
    """A library as people read it: PRIVATE_LIBRARY for the session's own, 示例库 for the bundled one, else its name."""
    if is_private(library):
        return PRIVATE_LIBRARY
    return BUNDLED_LIBRARY if library == Settings.default_library else library


def library_badge(library: str) -> str:
    """HTML of a library's name with its icon: a lock for the session's own, a book for a shared one."""
    return icon("lock" if is_private(library) else "book") + h(library_label(library))


def library_choices(libraries: Sequence[str]) -> list[tuple[str, str]]:
    """(shown name, library id) for a selector."""
    return [(library_label(x), x) for x in libraries]


def lifetime(ttl_min: float) -> str:
    """When a private library is removed, as a phrase."""
    return f"关闭页面或最后一次上传 {ttl_min:g} 分钟后自动删除" if ttl_min > 0 else "关闭页面后自动删除"


def destination_html(shared_library: str | None, ttl_min: float) -> str:
    """Where an upload went: a shared library, or the session's private one and when it goes."""
    if shared_library is not None:
        return f'<div class="kb-summary">已写入共享库“{h(shared_library)}”。</div>'
    return (f'<div class="kb-summary">已写入{PRIVATE_LIBRARY}：只有本页面能看到、检索和删除，'
            f"{h(lifetime(ttl_min))}。</div>")


DELETED = ("⌫", "已删除", "gone")  # a result line whose document has been deleted since


@dataclass(frozen=True)
class ResultLine:
    """One uploaded file's line in the results panel, and the document it stored (so the line can say 已删除 once
    that document is gone); plain text and HTML only, never the document itself."""

    status: str
    file: str
    detail: str  # HTML
    doc_id: str | None = None
    error: str = ""  # the English error, for the line's hover text


@dataclass(frozen=True)
class ShownUpload:
    """What the results panel shows for one upload: where it went (HTML) and one line per file."""

    head: str
    lines: tuple[ResultLine, ...]

    def html(self, stored: Container[str] | None = None) -> str:
        """The panel; with `stored` (the doc ids still stored), each line whose document is not says 已删除."""
        return self.head + results_html(self.lines, stored)


def result_lines(results: Sequence[IngestResult]) -> tuple[ResultLine, ...]:
    """One line per uploaded file: status, document, attachments found, dangling references, or why it failed."""
    lines = []
    for r in results:
        doc = r.document
        if r.error:
            detail = h(reason(r.file, r.error))
        elif doc is not None:
            labels = "、".join(a.label for a in doc.attachments) or "无附件"
            dangling = "、".join(dict.fromkeys(x.label for x in doc.dangling))
            detail = f"《{h(doc.title)}》 · {len(doc.attachments)} 个附件（{h(clip(labels, 80))}） · {len(doc.chunks)} 个片段"
            if doc.page_count and r.status != "attached":
                detail += f" · {doc.page_count} 页"
            if dangling:
                detail += f' · <span class="kb-dangling">悬空引用：{h(dangling)}</span>'
            for note in r.notes:
                detail += f'<div class="kb-dangling">⚠ {h(note)}</div>'
        else:
            detail = ""
        lines.append(ResultLine(r.status, r.file, detail, r.doc_id if r.status != "error" else None, r.error or ""))
    return tuple(lines)


def results_html(lines: Sequence[ResultLine], stored: Container[str] | None = None) -> str:
    """The results table; with `stored`, a line whose document is no longer stored says 已删除."""
    if not lines:
        return f'<div class="annex-empty">没有可入库的文件（支持 {SHOWN}）。</div>'
    rows = []
    gone = 0
    for line in lines:
        deleted = stored is not None and line.doc_id is not None and line.doc_id not in stored
        gone += deleted
        mark, word, cls = DELETED if deleted else STATUS.get(line.status, ("?", line.status, "same"))
        hover = f' title="{h(line.error)}"' if line.error else ""  # the English text, as the logs and the API say it
        rows.append(f'<tr class="kb-{cls}"><td>{mark} {h(word)}</td><td>{h(line.file)}</td>'
                    f"<td{hover}>{line.detail}</td></tr>")
    ok = sum(1 for line in lines if line.status != "error")
    since = f"，其中 {gone} 个已删除" if gone else ""
    head = f'<div class="kb-summary">{ok} 个文件成功，{len(lines) - ok} 个失败{since}</div>'
    return f'{head}<table class="kb-table"><tr><th>结果</th><th>文件</th><th>详情</th></tr>{"".join(rows)}</table>'


def ingest_results_html(results: Sequence[IngestResult]) -> str:
    """One row per uploaded file (result_lines), as the panel shows it right after the upload."""
    return results_html(result_lines(results))


def document_rows(summaries: Sequence[DocumentSummary], attachments: Sequence[AttachmentInfo]) -> list[list[str | int]]:
    """Rows of the document list (DOCUMENT_COLUMNS); plain strings, shown as text by the Dataframe."""
    labels: dict[str, list[str]] = defaultdict(list)
    for a in attachments:
        labels[a.doc_id].append(a.label)
    return [
        [s.name, format_of(s.name), s.page_count or "", library_label(s.library), f"{s.attachments}：{clip('、'.join(labels[s.id]), 60)}" if s.attachments else "0",
         s.chunks, "、".join(s.dangling), "、".join(s.tags), s.id]
        for s in summaries
    ]


def document_choices(summaries: Sequence[DocumentSummary]) -> list[tuple[str, str]]:
    """(label, doc id) for the document selector."""
    return [(f"{s.name}（{library_label(s.library)}）", s.id) for s in summaries]


def document_view_html(doc: Document | None) -> str:
    """A document: its files, its attachments with who references them, every reference, and its text."""
    if doc is None:
        return '<div class="annex-empty">选择一个文档，查看它的附件和引用。</div>'
    incoming: dict[str, list[str]] = defaultdict(list)
    for r in doc.references:
        if r.target:
            incoming[r.target].append(f"{r.source or '正文'}“{r.mention}”")
    att_rows = "".join(
        f"<tr><td>{h(a.label)}</td><td>{h(a.title)}</td><td>{a.end - a.start}</td>"
        f"<td>{h('；'.join(incoming.get(a.label, [])) or '—')}</td></tr>"
        for a in doc.attachments
    )
    ref_rows = "".join(
        f'<tr class="{"kb-error" if r.dangling else ""}"><td>{h(r.source or "正文")}</td><td>{h(r.mention)}</td>'
        f'<td>{"✗ " + h(r.label) + " 不存在（悬空引用）" if r.dangling else "→ " + h(r.target)}</td>'
        f"<td>{h(_context(doc.text, r.start, r.end))}</td></tr>"
        for r in doc.references
    )
    files = "、".join(p.file for p in doc.parts)
    tags = f" · 标签：{h('、'.join(doc.tags))}" if doc.tags else ""
    preview = doc.text[:TEXT_PREVIEW] + ("\n…" if len(doc.text) > TEXT_PREVIEW else "")
    body_chunks = sum(1 for c in doc.chunks if c.attachment == BODY)
    return (
        f'<div class="kb-doc"><h3>{icon("doc")}{h(doc.title)}</h3>'
        f'<div class="kb-meta">库：{library_badge(doc.library)} · 文件：{h(files)} · {len(doc.text)} 字 · '
        f'{len(doc.chunks)} 个片段（正文 {body_chunks}）{tags} · id {h(doc.id)}</div>'
        f"<h4>附件（{len(doc.attachments)}）</h4>"
        + (f'<table class="kb-table"><tr><th>编号</th><th>名称</th><th>字数</th><th>被谁引用</th></tr>{att_rows}</table>'
           if doc.attachments else '<div class="annex-empty">没有识别出附件。</div>')
        + f"<h4>引用（{len(doc.references)}，悬空 {len(doc.dangling)}）</h4>"
        + (f'<table class="kb-table"><tr><th>位置</th><th>原文提法</th><th>指向</th><th>上下文</th></tr>{ref_rows}</table>'
           if doc.references else '<div class="annex-empty">没有引用。</div>')
        + f'<details><summary>全文</summary><pre class="kb-text">{h(preview)}</pre></details></div>'
    )


def _context(text: str, start: int, end: int, width: int = 24) -> str:
    before = text[max(0, start - width) : start].split("\n")[-1]
    after = text[end : end + width].split("\n")[0]
    return f"…{before}【{text[start:end]}】{after}…"
