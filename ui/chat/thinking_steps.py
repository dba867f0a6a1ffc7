"""The chat's thinking block as nested steps: retrieval, prefetch, model, post-answer hop, each with its time.

Gradio's Chatbot nests a message under another when its metadata's `parent_id` names the other's `id`; each
step is a collapsible block whose title carries its duration (from the pipeline's `done` event: `steps`).
"""
from __future__ import annotations

from typing import Any, Mapping

from ui.safe import md

# (step, name) in the order a turn runs them; the keys are the pipeline's `step` names. The titles are plain text
# (a chat title keeps no markup), so no icon: an emoji would be an empty box where no emoji font is installed.
STEPS = (("retrieval", "检索"), ("prefetch", "图谱预取"), ("model", "模型"), ("hop", "回答后跳转"))
_PREFIXES = (("图谱预取", "prefetch"), ("检索", "retrieval"), ("追问", "retrieval"))  # a stored trace line's step, by its first words


def step_of(line: str) -> str:
    """The step a trace line belongs to (context-window notes and agent calls belong to the model)."""
    return next((step for prefix, step in _PREFIXES if line.startswith(prefix)), "model")


def step_lines(view: Any) -> dict[str, list[str]]:
    """Markdown lines (escaped) of each step."""
    lines: dict[str, list[str]] = {step: [] for step, _ in STEPS}
    for line in view.trace:
        lines[step_of(line)].append(f"- {md(line)}")
    if view.model:
        lines["model"].insert(0, f"- 模型：{md(view.model)}" + ("（模型失败，已改用离线抽取）" if view.fallback else ""))
    if view.model_thinking.strip():
        lines["model"].append("\n**模型思考**\n\n" + md(view.model_thinking.strip()))
    lines["model"] += [f"- ⚠️ {md(w)}" for w in view.warnings]
    for item in view.attachments:
        if item.get("resolved"):
            lines["hop"].append(f"- “{md(item['line'])}” → 《{md(item.get('doc_title', ''))}》"
                                f"{md(item['label'])} {md(item.get('title', ''))}")
        else:
            lines["hop"].append(f"- “{md(item['line'])}” 未找到对应附件")
    return lines


def _ms(value: float | None) -> str:
    if value is None:
        return ""
    return f"{value:.1f} ms" if value < 10 else f"{value:.0f} ms"


def thinking_messages(view: Any, key: str, title: str, working: str) -> list[dict]:
    """The parent thinking message and one child per step that has something to show."""
    done = bool(view.answer or view.done)
    parent: dict[str, Any] = {"title": title, "id": key, "status": "done" if done else "pending"}
    if view.elapsed_ms is not None:
        parent["duration"] = round(view.elapsed_ms / 1000, 2)
    lines = step_lines(view)
    timings: Mapping[str, float] = getattr(view, "steps", None) or {}
    present = [step for step, _ in STEPS if lines[step] or step in timings]
    summary = " · ".join(f"{name} {_ms(timings.get(step))}".strip() for step, name in STEPS if step in present)
    messages = [{"role": "assistant", "content": summary or working, "metadata": parent}]
    for i, (step, name) in enumerate(STEPS):
        if step not in present:
            continue
        later = any(s in present for s, _ in STEPS[i + 1:])
        meta: dict[str, Any] = {"title": name,  # Gradio shows the duration beside the title
                                "id": f"{key}-{step}", "parent_id": key,
                                "status": "done" if view.done or later else "pending"}
        if step in timings:
            meta["duration"] = round(timings[step] / 1000, 3)
        body = "\n".join(lines[step]) or "（无）"
        messages.append({"role": "assistant", "content": body, "metadata": meta})
    return messages
