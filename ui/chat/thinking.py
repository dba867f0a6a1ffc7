"""The thinking panel: the pipeline's trace step by step, the model's reasoning, and the turn's vital signs."""
from __future__ import annotations

from ui.chat.turn_view import TurnView
from ui.icons import icon
from ui.safe import h

EMPTY = '<div class="annex-empty">提问后，这里显示检索查询、命中的片段数、每一次图谱跳转，以及模型的思考（如有）。</div>'
_STEPS = (("追问", "chat"), ("检索查询", "search"), ("检索", "layers"), ("图谱预取", "link"))  # line prefix → icon


def render_thinking(view: TurnView | None) -> str:
    """HTML of the turn's trace; every string escaped."""
    if view is None:
        return EMPTY
    items = []
    for line in view.trace:
        mark = icon(next((i for prefix, i in _STEPS if line.startswith(prefix)), "dot"))
        kind, sep, rest = line.partition("：")
        text = f"<b>{h(kind)}</b>：{h(rest)}" if sep else h(line)
        items.append(f"<li><span class='think-icon'>{mark}</span>{text}</li>")
    for item in view.attachments:
        if item.get("resolved"):
            text = f"<b>回答后跳转</b>：“{h(item['line'])}” → {h(item['doc_title'])} · {h(item['label'])} {h(item['title'])}"
            items.append(f"<li><span class='think-icon'>{icon('clip')}</span>{text}（{h(_match(item.get('match', '')))}）</li>")
        else:
            items.append(f"<li><span class='think-icon'>{icon('cross')}</span><b>回答后跳转</b>：“{h(item['line'])}” 未找到对应附件</li>")
    parts = [f"<ol class='think-steps'>{''.join(items)}</ol>" if items else ""]
    if view.model_thinking.strip():
        parts.append(f"<div class='think-model'><b>模型思考</b><pre>{h(view.model_thinking.strip())}</pre></div>")
    parts += [f"<div class='think-warning'>{icon('alert')}{h(w)}</div>" for w in view.warnings]
    parts.append(f"<div class='think-meta'>{h(_meta(view))}</div>")
    return f"<div class='annex-thinking'>{''.join(parts)}</div>"


def _match(kind: str) -> str:
    return {"exact_label": "按附件编号匹配", "title": "按附件名称匹配", "fuzzy": "模糊匹配"}.get(kind, kind or "")


def _meta(view: TurnView) -> str:
    if not view.done:
        return "进行中…"
    bits = [f"模型：{view.model}" if view.model else ""]
    if view.elapsed_ms is not None:
        bits.append(f"用时 {view.elapsed_ms:.0f} ms")
    if view.token_usage:
        bits.append(f"tokens：{view.token_usage.get('prompt_tokens', '?')} 入 / {view.token_usage.get('completion_tokens', '?')} 出")
    if view.fallback:
        bits.append("模型失败，已改用离线抽取")
    return " · ".join(b for b in bits if b)
