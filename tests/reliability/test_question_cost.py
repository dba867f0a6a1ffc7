"""Issue 21 item 17: a 4,000-character repeated question costs no server time: refused at once with its limit."""
from __future__ import annotations

import time

import pytest

from tests.reliability.conftest import assert_healthy

pytestmark = pytest.mark.reliability


def test_a_4000_character_repeated_question_is_refused_at_once_naming_the_limit(live_app):
    question = ("东岭街道有几艘冲锋舟？" * 400)[:4000]
    began = time.monotonic()
    response = live_app.http.post("/api/knowledge/chat", json={"query": question})
    spent = time.monotonic() - began
    assert response.status_code in (400, 422), response.text
    assert "4000 characters, over the limit of 500" in response.text
    assert spent < 1.0, f"the refusal took {spent:.1f} s"
    assert_healthy(live_app)
