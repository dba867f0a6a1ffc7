"""Issue 21 item 17: a question costs time linear in its length, whatever runs it holds; over-long ones are refused.

The growth cases read a question of n and of 2n characters and assert time(2n) / time(n) < MAX_RATIO, the best of a
few repetitions so that a loaded machine does not decide the test. A quadratic reader doubles to ×4, a cubic to ×8.
They run with ANNEX_MAX_QUESTION_CHARS lifted: the limit is the product's, the cost must be linear without it.
"""
from __future__ import annotations

import gc
import time
from typing import Callable, Iterator

import pytest

from kb.answer import followup
from kb.answer.followup import read_question
from kb.answer.question import asked_for, asks, examples, framed, person_names, single_runs, word_spans
from kb.search import tokens
from kb.search.tokens import tokenize
from kb.service import Service
from kb.turn import TurnRequest
from tests.demo_service import open_demo_service
from tests.reliability.conftest import NORMAL_ANSWER, NORMAL_QUESTION, assert_healthy

pytestmark = pytest.mark.reliability

MAX_RATIO = 3.0
REPEATS = 2
CACHES = (word_spans, person_names, tokens._normalize, followup._cut)  # a repetition must read the question again, not recall it

# (what runs, text before, the repeated run, text after): runs of spaces and full-width spaces, 附/件/录, digits,
# brackets, 的, 是, 多少, clause breaks, 、-lists, a question repeated, and the endings the question readers look for.
RUNS = [
    ("spaces", "东岭街道", " ", "有几艘冲锋舟？"),
    ("full-width spaces", "东岭街道", "\u3000", "有几艘冲锋舟？"),
    ("spaces before the end", "冲锋舟有几艘", " ", "x"),
    ("question marks and spaces", "冲锋舟有几艘", "？ ", "x"),
    ("newlines", "附件", "\n", "是多少"),
    ("附", "", "附", "录"),
    ("件", "附", "件", "是多少"),
    ("录", "附", "录", "1"),
    ("digits", "附件", "1", "是多少"),
    ("full-width digits", "第", "１", "条是多少"),
    ("Chinese numerals", "", "一", "x是多少"),
    ("open brackets", "", "（", "是多少"),
    ("quotes", "", "“", "是多少"),
    ("的", "", "的", "是多少"),
    ("是", "", "是", "多少"),
    ("多少", "", "多少", ""),
    ("a clause without its ending", "", "东岭街道冲锋舟", "有"),
    ("endings that open their clause", "", "，是多少", ""),
    ("a 、-list without 等", "", "消防服、", "存放在哪里？"),
    ("等 again and again", "消防服、消防靴", "等", "存放在哪里？"),
    ("在…中 frames", "", "在清单中的", "临界量是多少"),
    ("按照 frames", "按照", "国旗法", "，尺寸是多少？"),
    ("the question repeated", "", "东岭街道有几艘冲锋舟？", ""),
]
CHARS = 1000  # n: jieba's part-of-speech HMM reads a run of unknown characters at about 1.5 ms a character


def _question(before: str, run: str, after: str, chars: int) -> str:
    return before + run * max(1, (chars - len(before) - len(after)) // len(run)) + after


def _best(work: Callable[[], object]) -> float:
    best = float("inf")
    for _ in range(REPEATS):
        for cache in CACHES:
            cache.cache_clear()
        gc.collect()  # what earlier cases left is not this question's cost
        gc.disable()
        try:
            began = time.perf_counter()
            work()
            best = min(best, time.perf_counter() - began)
        finally:
            gc.enable()
    return best


def _assert_linear(cost: Callable[[str], object], before: str, run: str, after: str, chars: int = CHARS) -> None:
    small, large = (_best(lambda q=_question(before, run, after, n): cost(q)) for n in (chars, 2 * chars))
    assert large < 0.05 or large / small < MAX_RATIO, f"{chars} → {2 * chars} chars: {small:.3f} s → {large:.3f} s"


EARLIER = ["东岭街道有几艘冲锋舟？"]
TITLES = ["东岭街道防汛应急预案"]
READERS = {  # every reader of a question's text before retrieval, by what it finds, and its n
    "what it counts (asked_for)": (asked_for, CHARS),
    "the examples it lists": (examples, CHARS),
    "its frames (按照…，在…中)": (framed, CHARS),
    "what it asks for (多少, 哪些, 谁)": (asks, CHARS),
    "one-character words it writes together": (single_runs, CHARS),
    "the people it names": (person_names, 400),  # jieba's part-of-speech HMM: about 1.5 ms a character
    "a follow-up's reading": (lambda q: read_question(q, EARLIER, TITLES), 400),
    "its search words": (tokenize, CHARS),
}


@pytest.mark.parametrize("before,run,after", [r[1:] for r in RUNS], ids=[r[0] for r in RUNS])
@pytest.mark.parametrize("reader", list(READERS), ids=list(READERS))
def test_each_question_reader_grows_linearly_with_a_repeated_run(reader, before, run, after):
    read, chars = READERS[reader]
    _assert_linear(read, before, run, after, chars)


@pytest.fixture(scope="module")
def unlimited(tmp_path_factory) -> Iterator[Service]:
    """The demo corpus with no limit on a question's length."""
    service = open_demo_service(tmp_path_factory.mktemp("store"), max_question_chars=10**6)
    yield service
    service.close()


TURN_RUNS = [r for r in RUNS if r[0] in ("spaces", "full-width spaces", "附", "digits", "是", "多少", "the question repeated",
                                        "a clause without its ending", "a 、-list without 等", "等 again and again")]


@pytest.mark.parametrize("before,run,after", [r[1:] for r in TURN_RUNS], ids=[r[0] for r in TURN_RUNS])
def test_a_whole_offline_turn_grows_linearly_with_a_repeated_run(unlimited, before, run, after):
    """Reading, retrieval, the graph's prefetch and the offline answer of one question, as the API runs it."""
    def turn(question: str) -> None:
        for _ in unlimited.pipeline.run(TurnRequest(question, history_turns=0)):
            pass
    _assert_linear(turn, before, run, after, chars=600)


def test_a_follow_up_turn_with_history_grows_linearly(unlimited):
    """A follow-up is read against the earlier question (ellipsis, anaphora) and the earlier turns' text."""
    first = list(unlimited.pipeline.run(TurnRequest(NORMAL_QUESTION)))
    conversation = next(e.data["conversation_id"] for e in first if e.type == "conversation_id")
    assert NORMAL_ANSWER in "".join(e.data["text"] for e in first if e.type == "content")

    def follow_up(question: str) -> None:
        for _ in unlimited.pipeline.run(TurnRequest(question, conversation_id=conversation, history_turns=1)):
            pass
    _assert_linear(follow_up, "那", "西岭街道 ", "呢？", chars=600)


def test_a_4000_character_repeated_question_is_refused_at_once_naming_the_limit(live_app):
    """The limit stays a product's: a question of thousands of characters is text to upload, not to ask."""
    question = ("东岭街道有几艘冲锋舟？" * 400)[:4000]
    began = time.monotonic()
    response = live_app.http.post("/api/knowledge/chat", json={"query": question})
    spent = time.monotonic() - began
    assert response.status_code in (400, 422), response.text
    assert "4000 characters, over the limit of 500" in response.text
    assert spent < 1.0, f"the refusal took {spent:.1f} s"
    assert_healthy(live_app)
