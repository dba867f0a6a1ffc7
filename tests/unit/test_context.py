"""The prompt's token estimate and fitting sources into a context window."""
from __future__ import annotations

from kb.answer.context import CUT_MARK, estimate_messages, estimate_tokens, fit
from kb.answer.sources import build_messages
from kb.turn import Source

QUESTION = "东岭街道有几艘冲锋舟？"


def _source(n: int, score: float, text: str) -> Source:
    return Source(n, f"d{n}", f"文件{n}", "demo", "", "", text, ((0, len(text)),), (f"c{n}",), score)


def _build(sources, history):
    return build_messages(QUESTION, sources, history)


def test_the_estimate_counts_a_chinese_character_as_a_token_and_ascii_by_three():
    assert estimate_tokens("冲锋舟") == 3
    assert estimate_tokens("abcdef") == 2
    assert estimate_tokens("冲锋舟 3 艘") == 4 + 1  # 冲锋舟艘, and " 3 " as one token


def test_sources_that_fit_are_kept_as_they_are():
    sources = [_source(1, 0.9, "冲锋舟：3艘"), _source(2, 0.5, "救生衣：200件")]
    fitted = fit(sources, [], _build, 10_000)
    assert fitted.sources == sources and not fitted.changed
    assert fitted.tokens == estimate_messages(_build(sources, []))


def test_the_lowest_ranked_go_first_and_the_rest_are_renumbered():
    sources = [_source(1, 0.9, "甲" * 300), _source(2, 0.2, "乙" * 300), _source(3, 0.6, "丙" * 300)]
    budget = estimate_messages(_build(sources, [])) - 250
    fitted = fit(sources, [], _build, budget)
    assert [s.doc_id for s in fitted.dropped] == ["d2"]
    assert [(s.n, s.doc_id) for s in fitted.sources] == [(1, "d1"), (2, "d3")]
    assert fitted.tokens <= budget


def test_the_last_source_is_cut_when_enough_room_is_left():
    sources = [_source(1, 0.9, "甲" * 300), _source(2, 0.2, "乙" * 1000)]
    budget = estimate_messages(_build(sources, [])) - 400
    fitted = fit(sources, [], _build, budget)
    assert fitted.dropped == () and [s.doc_id for s in fitted.cut] == ["d2"]
    assert fitted.sources[1].text.endswith(CUT_MARK) and 500 < len(fitted.sources[1].text) < 1000
    assert fitted.tokens <= budget


def test_history_goes_oldest_first_once_no_source_is_left_and_the_question_always_stays():
    history = [("user", "问" * 200), ("assistant", "答" * 200), ("user", "再问"), ("assistant", "再答")]
    fitted = fit([_source(1, 0.9, "甲" * 300)], history, _build, estimate_messages(_build([], history[2:])))
    assert fitted.sources == [] and fitted.history == history[2:] and fitted.history_dropped == 2
    tiny = fit([], [], _build, 1)
    assert tiny.tokens > tiny.budget  # nothing more to leave out: the caller is told, the prompt is sent
    assert QUESTION in _build(tiny.sources, tiny.history)[-1]["content"]
