"""Eval question files are read as a stream with caps (issue 21 item 7): bad lines cost their own line, not memory."""
from __future__ import annotations

import json
import tracemalloc
from pathlib import Path

import pytest

from kb.eval.metrics import MAX_LINE_BYTES, MAX_PROBLEMS, load_questions
from kb.settings import load_settings

pytestmark = pytest.mark.reliability

GOOD = {"question": "东岭街道有几艘冲锋舟？", "doc": "东岭.md", "attachments": ["附件4：抢险物资清单"],
        "answer_contains": ["冲锋舟"]}
MB = 1024 * 1024


def _bad_file(path: Path, size: int) -> int:
    """A file of `size` bytes of bad lines (broken JSON, a 12 KB bad kind, over-long lines) after one good
    question; how many lines it has."""
    broken = ("{\"question\": \"" + "坏" * 300 + "\n").encode()
    wrong_kind = (json.dumps({"question": "问", "doc": "a.md", "kind": "x" * 12_000}) + "\n").encode()
    too_long = b"[" + b"1," * (MAX_LINE_BYTES // 2 + 500) + b"1]\n"
    lines = 1
    with path.open("wb") as out:
        written = out.write((json.dumps(GOOD, ensure_ascii=False) + "\n").encode())
        while written < size:
            for line in (broken, broken, wrong_kind, too_long):
                written += out.write(line)
                lines += 1
    return lines


def _measured(path: Path, **caps: int):
    tracemalloc.start()
    try:
        loaded = load_questions(path, **caps)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    return loaded, peak


def test_twenty_mb_of_bad_lines_read_whole_keep_memory_small_and_problems_bounded(tmp_path):
    path = tmp_path / "questions.jsonl"
    lines = _bad_file(path, 20 * MB)
    (questions, problems), peak = _measured(path, max_lines=10**7, max_bytes=100 * MB)
    assert [q.question for q in questions] == [GOOD["question"]]
    assert peak < 1 * MB, f"peak {peak / MB:.1f} MB reading a 20 MB file"
    assert len(problems) == MAX_PROBLEMS + 1
    assert [p.line for p in problems[:4]] == [2, 3, 4, 5]
    assert "not JSON" in problems[0].reason
    assert "'kind' must be one of" in problems[2].reason and len(problems[2].reason) < 200
    assert problems[3].reason.startswith(f"the line is over {MAX_LINE_BYTES // 1024} KB")
    assert problems[-1].line == MAX_PROBLEMS + 2
    assert problems[-1].reason.startswith(f"{lines - 1 - MAX_PROBLEMS} more lines from here on could not be used")
    assert sum(len(p.reason) for p in problems) < 20_000  # no rejected line's text is kept


def test_past_the_default_caps_the_rest_of_the_file_is_one_skipped_problem(tmp_path):
    settings = load_settings(env={})
    assert (settings.max_question_lines, settings.max_question_bytes) == (2000, 5 * MB)
    big = tmp_path / "big.jsonl"
    _bad_file(big, 20 * MB)
    (questions, problems), peak = _measured(big, max_lines=settings.max_question_lines,
                                            max_bytes=settings.max_question_bytes)
    assert len(questions) == 1 and peak < 1 * MB
    assert "over its limit of ANNEX_MAX_QUESTION_FILE_MB=5 MB" in problems[-1].reason
    many = tmp_path / "many.jsonl"
    many.write_text((json.dumps(GOOD, ensure_ascii=False) + "\n") * 2500, encoding="utf-8")
    questions, problems = load_questions(many, max_lines=settings.max_question_lines,
                                         max_bytes=settings.max_question_bytes)
    assert len(questions) == 2000
    assert [(p.line, "over its limit of ANNEX_MAX_QUESTION_LINES=2000 lines" in p.reason) for p in problems] == [
        (2001, True)]


def test_one_bad_line_is_that_lines_problem_and_the_rest_are_read(tmp_path):
    path = tmp_path / "q.jsonl"
    deep = "[" * 5000 + "]" * 5000
    path.write_bytes(b"\xef\xbb\xbf" + "\n".join([
        json.dumps(GOOD, ensure_ascii=False), deep, "", "\xff", json.dumps(GOOD, ensure_ascii=False),
    ]).encode("utf-8").replace("\xff".encode(), b"\xff\xfe"))
    questions, problems = load_questions(path)
    assert [q.line for q in questions] == [1, 5]
    assert [p.line for p in problems] == [2, 4]
    assert "nested too deeply" in problems[0].reason
    assert "not UTF-8" in problems[1].reason
