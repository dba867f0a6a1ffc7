"""The one fold from a turn's events to what it produced (kb/answer/fold.py)."""
from __future__ import annotations

from kb.answer.events import Event
from kb.answer.fold import fold_events
from kb.answer.prompts import ATTACHMENT_BLOCK_HEADER


def test_the_fold_splits_answer_from_block_and_trace_from_model_thinking():
    block = "\n\n" + ATTACHMENT_BLOCK_HEADER + "\n\n**附件4-物资清单**"
    turn = fold_events([
        Event("conversation_id", {"conversation_id": "c1"}), Event("user_message_id", {"message_id": "u1"}),
        Event("assistant_message_id", {"message_id": "a1"}),
        Event("thinking", {"text": "检索到 3 个片段\n", "source": "pipeline"}),
        Event("thinking", {"text": "先看附件4", "source": "model"}),
        Event("content", {"text": "冲锋舟 3 艘 [1]"}), Event("content", {"text": block}),
        Event("attachments", {"items": [{"label": "附件4", "resolved": True}]}),
        Event("error", {"message": "模型超时"}), Event("done", {"elapsed_ms": 12.5, "model": "m", "fallback": True}),
    ])
    assert (turn.conversation_id, turn.user_message_id, turn.message_id) == ("c1", "u1", "a1")
    assert turn.trace == ["检索到 3 个片段"] and turn.model_thinking == "先看附件4"
    assert turn.thinking == "检索到 3 个片段\n先看附件4"
    assert turn.answer == "冲锋舟 3 艘 [1]" and turn.block == block.lstrip("\n")
    assert turn.content == "冲锋舟 3 艘 [1]" + block
    assert turn.attachments == [{"label": "附件4", "resolved": True}] and turn.warnings == ["模型超时"]
    assert turn.done and turn.fallback and turn.elapsed_ms == 12.5 and turn.done_data["model"] == "m"
