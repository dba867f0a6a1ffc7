"""The launched app through gradio_client: a question whose answer lives in an attachment, streamed."""
from __future__ import annotations

import pytest
from gradio_client import Client

from ui.chat.handlers import OUTPUTS

# The settings accordion's defaults, in ui.chat.handlers.KNOBS order (the client passes every visible input).
KNOBS = ([], 20, 0.7, True, False, False, 2, False, 3)
# The client returns the outputs that are not gr.State, in order.
VISIBLE = [name for name in OUTPUTS if name not in ("conversation", "owner", "turns", "shown")]
CHAT = VISIBLE.index("chatbot")


def _text(message: dict) -> str:
    content = message["content"]
    return content if isinstance(content, str) else "".join(part.get("text", "") for part in content)


@pytest.fixture(scope="module")
def client(app_url):
    return Client(app_url, verbose=False)


def test_a_question_answered_from_an_attachment_streams_the_answer_and_the_attachments_block(client):
    job = client.submit("滨江物流园应急值班室电话是多少？", *KNOBS, api_name="/ask")
    final = job.result(timeout=60)
    chats = [out[CHAT] for out in job.outputs() if isinstance(out[CHAT], list)]
    assert len(chats) > 3  # streamed: the chat was sent again as the trace and the answer grew
    assert len({len(_text(c[-1])) for c in chats}) > 2
    user, thinking, *steps, answer, block = final[CHAT]
    assert _text(user) == "滨江物流园应急值班室电话是多少？"
    assert thinking["metadata"]["title"].startswith("思考过程") and "图谱预取" in _text(thinking)
    assert all(s["metadata"]["parent_id"] == thinking["metadata"]["id"] for s in steps)  # nested steps
    assert any("附件3" in _text(s) for s in steps)
    assert "0513-85260110" in _text(answer)  # the number is only in 附件3, a file of its own
    assert "附件3" in block["metadata"]["title"]
    assert "**附件3-应急联系人通讯录**（《滨江物流园危险货物道路运输事故应急预案》）" in _text(block)
    assert "园区应急值班室（24小时）：0513-85260110。" in _text(block)
    citations = final[VISIBLE.index("citations")]
    assert '<mark class="cite-fact">' in citations and "0513-85260110" in citations


def test_an_empty_question_is_refused_without_a_server_error(client):
    final = client.submit("  ", *KNOBS, api_name="/ask").result(timeout=30)  # an AppError would be a server error
    assert final[CHAT] == {"__type__": "update"}  # gr.skip(): the chat is left as it was, a warning toast says why
