"""The look: a Gradio theme with local fonts only (no font CDN) and the CSS of the rendered panels."""
from __future__ import annotations

import gradio as gr

from ui.chat.scroll import KEEP_QUESTION_IN_VIEW
from ui.icons import ICON_CSS
from ui.locale import locale_head
from ui.safe import TOAST_TITLE_CSS

_SANS = ["ui-sans-serif", "system-ui", "-apple-system", "Segoe UI", "Noto Sans CJK SC", "PingFang SC",
         "Microsoft YaHei", "sans-serif"]
_MONO = ["ui-monospace", "SFMono-Regular", "Menlo", "Noto Sans Mono CJK SC", "monospace"]

THEME = gr.themes.Soft(primary_hue="indigo", secondary_hue="orange", neutral_hue="slate", font=_SANS, font_mono=_MONO)


def look() -> dict:
    """What launch() / mount_gradio_app() take for the look: theme, CSS and the head that sets the language."""
    return dict(theme=THEME, css=CSS + TOAST_TITLE_CSS, head=locale_head() + KEEP_QUESTION_IN_VIEW)


CSS = """
.gradio-container { max-width: 1680px !important; }
#annex-header h1 { margin: 0 0 2px 0; font-size: 1.55rem; }
#annex-header p { margin: 0; color: var(--body-text-color-subdued); }
#annex-model { font-size: 0.85rem; color: var(--body-text-color-subdued); text-align: right; }
#annex-examples button { font-size: 0.85rem; }
.annex-empty { color: var(--body-text-color-subdued); padding: 12px; font-size: 0.9rem; }
.annex-cites, .annex-source, .annex-thinking, .kb-doc { font-size: 0.9rem; line-height: 1.6; }
/* Gradio's .block sets overflow: visible, so without !important a long citation list spills over the source viewer. */
#annex-citations { max-height: 560px; overflow-y: auto !important; }
#annex-source { max-height: 640px; overflow-y: auto !important; }
#annex-citation-select input { text-overflow: ellipsis; }  /* a long source name ends in …, not mid-character */
.decline-note { color: var(--body-text-color-subdued); margin: 4px 0 6px 0; }
.annex-closest ol { margin: 0; padding-left: 0; list-style: none; }
.decline-passage { border-left: 3px solid #cbd5e1; padding: 2px 0 2px 8px; margin: 6px 0; }
.cite-doc { border: 1px solid var(--border-color-primary); border-radius: 8px; padding: 8px 10px; margin-bottom: 10px;
  background: var(--background-fill-primary); }
.cite-doc header { display: flex; gap: 8px; align-items: baseline; flex-wrap: wrap; margin-bottom: 4px; }
.cite-title { font-weight: 600; }
.cite-lib { font-size: 0.75rem; padding: 0 6px; border-radius: 8px; background: var(--background-fill-secondary); }
.cite-nums { font-size: 0.8rem; color: #4f46e5; }
.cite-snippet { border-left: 3px solid #f59e0b; padding: 2px 0 2px 8px; margin: 6px 0; }
.cite-where { font-size: 0.8rem; color: var(--body-text-color-subdued); margin-bottom: 2px; }
.cite-how { margin-left: 6px; padding: 0 5px; border-radius: 6px; background: #ffedd5; color: #9a3412; font-size: 0.72rem; }
.cite-text { white-space: pre-wrap; word-break: break-word; }
mark.cite-span { background: #fef3c7; color: inherit; padding: 0; }
mark.cite-fact { background: #fbbf24; color: #111827; font-weight: 600; padding: 0 1px; border-radius: 2px; }
.cite-gap { color: var(--body-text-color-subdued); }
.cite-note { font-size: 0.75rem; color: var(--body-text-color-subdued); }
.annex-source { border: 1px dashed #a5b4fc; border-radius: 8px; padding: 8px 10px; }
.think-steps { margin: 0; padding-left: 4px; list-style: none; }
.think-steps li { margin: 3px 0; }
.think-icon { display: inline-block; width: 1.6em; }
.think-model pre { white-space: pre-wrap; font-size: 0.85rem; }
.think-warning { color: #b45309; margin-top: 6px; }
.think-meta { margin-top: 8px; font-size: 0.8rem; color: var(--body-text-color-subdued); }
.kb-table { border-collapse: collapse; width: 100%; font-size: 0.85rem; margin: 4px 0 10px 0; }
.kb-table th, .kb-table td { border: 1px solid var(--border-color-primary); padding: 3px 6px; text-align: left;
  vertical-align: top; }
.kb-table tr.kb-error td { color: #b91c1c; }
.kb-table tr.kb-ok td:first-child { color: #15803d; }
.kb-table tr.kb-gone td { color: #6b7280; }
.kb-table tr.kb-gone td:nth-child(3) { text-decoration: line-through; }
.kb-dangling { color: #b91c1c; }
.kb-summary { font-weight: 600; margin-bottom: 4px; }
.kb-meta { color: var(--body-text-color-subdued); font-size: 0.8rem; }
#kb-document { max-height: 760px; overflow-y: auto !important; }
#kb-documents table { font-size: 0.8rem; }  /* nine columns in the list's width (COLUMN_WIDTHS) */
#kb-documents td, #kb-documents th { padding: 2px !important; }
.compare-lead { display: inline-block; font-weight: 600; font-size: 1.02rem; padding: 3px 10px; border-radius: 6px;
  background: var(--background-fill-secondary); border: 1px solid var(--border-color-primary); }
/* The empty chat shows the example questions itself; the row under the box is for the next question. */
.gradio-container:has(#annex-chat .placeholder-content) #annex-examples { display: none !important; }
#annex-paths-title p { margin: 0; font-size: 0.9rem; }
/* The paths picture has nothing to zoom or pan (fixed ranges); its toolbar would sit on the note and top labels. */
#annex-paths .modebar-container { display: none !important; }
/* Tables and headings inside the panels read as tables and bold lines; numbers never wrap digit by digit. */
.cite-table { border-collapse: collapse; margin: 4px 0; font-size: 0.85rem; white-space: normal; }
.cite-table td { border: 1px solid var(--border-color-primary); padding: 2px 6px; vertical-align: top;
  word-break: normal; overflow-wrap: normal; }
.cite-table-wrap { overflow-x: auto; max-width: 100%; }  /* a wide table scrolls sideways inside its card */
/* …and says so: a shadow at each edge with more table beyond it (the covers scroll with the table and hide the
   shadow at an end it has reached). Phones show no scrollbar, so a cut column would otherwise look clipped. */
.cite-table-wrap { background:
  linear-gradient(to right, var(--background-fill-primary) 40%, transparent) left / 28px 100% no-repeat local,
  linear-gradient(to left, var(--background-fill-primary) 40%, transparent) right / 28px 100% no-repeat local,
  radial-gradient(farthest-side at 0 50%, rgba(15, 23, 42, 0.22), transparent) left / 12px 100% no-repeat scroll,
  radial-gradient(farthest-side at 100% 50%, rgba(15, 23, 42, 0.22), transparent) right / 12px 100% no-repeat scroll; }
.cite-h { display: block; font-weight: 700; margin: 2px 0; }
.annex-nowrap { white-space: nowrap; }
#annex-chat table td, #annex-chat table th { word-break: normal; overflow-wrap: normal; }
/* The chat, its input box and the newest question fit one screen: a 1280×800 laptop sees all three. */
#annex-chat { height: min(640px, max(360px, calc(100vh - 260px))) !important; }
.annex-phone-only { display: none !important; }
@media (max-width: 640px) {
  .gradio-container { padding: 6px !important; }
  #annex-header { flex-direction: column !important; gap: 0 !important; }
  #annex-header h1 { font-size: 1.15rem; }
  #annex-header .annex-intro, #annex-model .annex-model-note { display: none; }
  #annex-model { text-align: left; font-size: 0.75rem; }
  #annex-examples, #compare-examples { flex-wrap: nowrap !important; overflow-x: auto; }
  #annex-examples button, #compare-examples button { flex: 0 0 auto; min-width: 0 !important; white-space: nowrap; }
  #compare-columns { flex-direction: column-reverse !important; }  /* graph mode, the column the tab is about, first */
  /* The answer and its attachments first: graph paths and citations before the settings, sharing and history. */
  #annex-main { flex-direction: column !important; }
  #annex-left { display: contents !important; }
  #annex-left > * { order: 1; }
  #annex-right { order: 2; }
  #annex-main > *, #annex-left > * { min-width: 0 !important; width: 100% !important; max-width: 100%; margin: 0 !important; }
  #annex-left > .annex-later, #annex-left > #annex-share, #annex-left > #annex-share-accordion { order: 3; }
  #annex-chat { height: auto !important; max-height: 70vh; min-height: 300px; }
  .annex-wide-only { display: none !important; }
  .annex-phone-only { display: block !important; }
  /* A table cell keeps its words whole (园区公共应急事故池, not 园区/公共/应急): the table scrolls sideways instead. */
  .cite-table td { word-break: keep-all; }
  /* The same for the evaluation's summary: 附件召回率 on one line, not one character a line; the list scrolls. */
  #eval-summary th, #eval-summary th span { word-break: keep-all !important; }
}

.kb-text { white-space: pre-wrap; max-height: 420px; overflow-y: auto; font-size: 0.8rem; }
""" + ICON_CSS
