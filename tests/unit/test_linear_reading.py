"""Issue 21 items 4 and 5: reading a document costs time linear in its size, whatever runs it holds.

Each case reads a document of n and of 2n repeats and asserts time(2n) / time(n) < MAX_RATIO, the best of a few
repetitions so that a loaded machine does not decide the test. A quadratic reader doubles to ×4, a cubic to ×8."""
from __future__ import annotations

import gc
import time

import pytest

from kb.errors import ParseError
from kb.ingest.assemble import Limits, build_document
from kb.ingest.splitting import is_toc_line
from kb.model import ParsedFile

MAX_RATIO = 3.0
REPEATS = 3
NO_LIMITS = Limits(attachments=10**9, references=10**9, seconds=0)

# (what runs, text before, the repeated run, text after, n): spaces and full-width spaces after a label and in a
# line's tail (the cubic _TOC_TAIL of old), 附/件/录, digits, brackets, tabs, dot leaders.
RUNS = [
    ("spaces after 附录", "附录", " ", "1\n", 2000),
    ("full-width spaces after 附件", "附件", "\u3000", "\n", 2000),
    ("spaces in a sentence", "见", " ", "x", 2000),
    ("tabs after a header", "附件1：", "\t", "x\n", 2000),
    ("附 repeated", "", "附", "1\n", 4000),
    ("件 repeated", "附", "件", "\n", 4000),
    ("录 repeated", "附", "录", "1", 4000),
    ("digits after a label", "附件", "1", "：表\n", 4000),
    ("full-width digits", "附件", "１", "\n", 4000),
    ("open brackets", "附件1", "（", "\n", 4000),
    ("close brackets", "附件1", "）", "\n", 4000),
    ("dot leaders", "附件1：表", ".", "12\n", 4000),
    ("labels and spaces", "", "附件 1 ", "\n", 1000),
    ("attachment headers", "", "\n附件1：表\n", "", 2000),
    ("numbered headers", "", "\n\n附件9：清单表\n\n内容。", "", 1000),
    ("blank lines after a cited title", "见《某某标准》", "\n", "附录B\n", 2000),
    ("spaces and a bracket after a cited title", "见《某某标准》", " ", "（GB 50016-2014）附录B\n", 2000),
    ("aliases defined again and again", "", "详见附件1（以下简称《甲表》），按《甲表》执行。", "\n\n附件1：甲表\n\n内容\n", 2000),
]


def _seconds(text: str) -> float:
    parsed = ParsedFile("文.md", "文.md", "# 某某预案\n\n" + text, "h")
    best = float("inf")
    for _ in range(REPEATS):
        gc.disable()  # no collection inside the timing: what earlier cases left is not this document's cost
        try:
            began = time.thread_time()  # this thread's CPU: neither other processes nor threads earlier tests left running
            build_document("lib", parsed, limits=NO_LIMITS)
            best = min(best, time.thread_time() - began)
        finally:
            gc.enable()
    return best


@pytest.mark.parametrize("before,run,after,n", [r[1:] for r in RUNS], ids=[r[0] for r in RUNS])
def test_reading_a_document_grows_linearly_with_a_repeated_run(before, run, after, n):
    small, large = _seconds(before + run * n + after), _seconds(before + run * 2 * n + after)
    assert large < 0.1 or large / small < MAX_RATIO, f"{n} → {2 * n} repeats: {small:.3f} s → {large:.3f} s"


def test_a_toc_line_of_4000_spaces_is_read_at_once():
    began = time.perf_counter()
    assert not is_toc_line("附录" + " " * 4000 + "x")
    assert not is_toc_line("附件" + "\u3000" * 4000)
    assert time.perf_counter() - began < 0.5


def test_toc_lines_are_still_told_from_headers():
    assert is_toc_line("附件4：应急物资清单\t98")
    assert is_toc_line("附件4：应急物资清单......98")
    assert is_toc_line("附件4：应急物资清单……98")
    assert is_toc_line("附件4：应急物资清单    98")
    assert not is_toc_line("附件4：应急物资清单 98")
    assert not is_toc_line("附件4：应急物资清单")


def test_an_alias_defined_a_thousand_times_is_one_alias():
    text = "# 某某预案\n\n" + "详见附件1（以下简称《甲表》），按《甲表》执行。" * 1000 + "\n\n附件1：甲表\n\n内容\n"
    doc = build_document("lib", ParsedFile("文.md", "文.md", text, "h"), limits=NO_LIMITS)
    uses = [r for r in doc.references if r.mention == "《甲表》"]
    # each 《甲表》 once (the uses, and the later definitions' own), not once per definition before it
    assert len({r.start for r in uses}) == len(uses) == 2000
    assert {r.target for r in uses} == {"附件1"}


def test_a_document_past_the_caps_is_refused_naming_the_setting():
    many = "".join(f"\n\n附件{n}：清单{n}\n\n内容。" for n in range(1, 31))
    with pytest.raises(ParseError, match="30 attachments, over the ANNEX_MAX_ATTACHMENTS limit of 20"):
        build_document("lib", ParsedFile("文.md", "文.md", "# 预案\n" + many, "h"), limits=Limits(attachments=20))
    cited = "详见附件1。" * 50 + "\n\n附件1：表\n\n内容\n"
    with pytest.raises(ParseError, match="50 references, over the ANNEX_MAX_REFERENCES limit of 40"):
        build_document("lib", ParsedFile("文.md", "文.md", "# 预案\n" + cited, "h"), limits=Limits(references=40))


@pytest.mark.parametrize("run", [" ", "\u3000", " - ", "[", "[1,", " \n"])
def test_the_answer_section_reader_grows_linearly_with_a_run_in_a_line(run):
    """A 相关附件 line is read by the post-answer hop: a model (or a quoted document) may write any run into it."""
    from kb.answer.section import extract_section

    def seconds(n: int) -> float:
        answer = "答案。\n\n**相关附件**\n- 附件1-" + run * n + "表 [1]\n"
        best = float("inf")
        for _ in range(REPEATS):
            began = time.thread_time()
            extract_section(answer)
            best = min(best, time.thread_time() - began)
        return best

    small, large = seconds(2000), seconds(4000)
    assert large < max(small, 1e-3) * MAX_RATIO, (small, large)


@pytest.mark.parametrize("line", ["甲{}乙", "报告单位：{}报告人：", "地址：东岭路{}；电话："])
def test_a_form_line_with_a_run_of_spaces_is_read_linearly(line):
    """The offline answerer reads every candidate line as form fields (酒店地址：…); a chunk of 800 spaces cost 2 s."""
    from kb.answer.forms import fields, fills

    def seconds(n: int) -> float:
        text = line.format(" " * n)
        best = float("inf")
        for _ in range(REPEATS):
            began = time.thread_time()
            fields(text)
            fills(text, {"地址"})
            best = min(best, time.thread_time() - began)
        return best

    small, large = seconds(2000), seconds(4000)
    assert large < max(small, 1e-3) * MAX_RATIO, (small, large)
