"""The evaluation command on the demo corpus: per-question table, JSON last line, bad input reported, baselines."""
from __future__ import annotations

import contextlib
import io
import json
import re
import subprocess
import sys

import pytest

from kb.eval import run as kb_eval
from kb.eval.baselines import KeywordPipeline, attachment_names, keyword_hop
from kb.eval.metrics import load_questions
from kb.settings import load_settings
from kb.service import open_service
from kb.turn import TurnRequest
from tests.conftest import DATA_DIR, DEMO_CORPUS, ROOT

PARK = "绿洲化工园区突发环境事件应急预案.docx"
AGGREGATE_KEYS = {"questions", "attachment_recall", "reached_prompt", "attachment_precision", "answer_contains", "unanswerable_ok",
                  "by_kind", "p50_ms", "p95_ms", "mode"}
GOOD = [
    {"doc": PARK, "question": "绿洲化工园区应急指挥部的24小时值班电话是多少？",
     "attachments": ["附件2 应急指挥部成员及24小时值班电话"], "answer_contains": ["029-8637-1190"], "kind": "attachment",
     "note": "unknown fields are ignored"},
    {"doc": "东岭街道防汛应急预案.md", "question": "东岭街道有几艘冲锋舟？存放在哪里？",
     "attachments": ["附件4：防汛抢险物资储备清单"], "answer_contains": ["3艘", "东岭仓库"], "kind": "attachment"},
    {"doc": "示范市餐厨垃圾管理办法.md", "question": "收运单位未如实填写收运联单会被罚款多少？",
     "attachments": [], "answer_contains": ["一千元以上一万元以下"], "kind": "body"},
    {"doc": "", "question": "火星基地的氧气储备有多少？", "attachments": [], "answer_contains": [], "kind": "unanswerable"},
]


@pytest.fixture(scope="module")
def question_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("questions") / "q.jsonl"
    lines = [json.dumps(GOOD[0], ensure_ascii=False), "{this is not json",
             json.dumps({**GOOD[0], "doc": "不存在的预案.docx"}, ensure_ascii=False),
             *(json.dumps(q, ensure_ascii=False) for q in GOOD[1:])]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def all_modes(question_file, tmp_path_factory):
    """One run of every mode over the bundled corpus, through main(argv)."""
    out = tmp_path_factory.mktemp("out") / "eval.json"
    stdout = io.StringIO()
    with contextlib.redirect_stdout(stdout):
        code = kb_eval.main(["--corpus", str(DEMO_CORPUS), "--questions", str(question_file), "--mode", "all",
                             "--json", str(out)])
    return code, stdout.getvalue().splitlines(), json.loads(out.read_text(encoding="utf-8"))


def test_every_mode_runs_and_the_last_line_holds_the_aggregates(all_modes):
    code, lines, _ = all_modes
    assert code == 0
    last = json.loads(lines[-1])
    assert set(last["modes"]) == {"graph", "naive", "keyword"}
    for mode, result in last["modes"].items():
        assert AGGREGATE_KEYS <= set(result) and result["mode"] == mode
        assert result["questions"] == 4
        assert set(result["by_kind"]) == {"attachment", "body", "unanswerable"}
        for key in ("attachment_recall", "attachment_precision", "answer_contains", "unanswerable_ok"):
            assert result[key] is None or 0.0 <= result[key] <= 1.0
        assert 0 < result["p50_ms"] <= result["p95_ms"]


def test_the_graph_shows_the_attachments_and_declines_what_the_corpus_lacks(all_modes):
    graph = json.loads(all_modes[1][-1])["modes"]["graph"]
    assert graph["attachment_recall"] == 1.0 and graph["attachment_precision"] == 1.0
    assert graph["reached_prompt"] == 1.0  # the attachment was among the sources the answerer saw, not only appended
    assert graph["answer_contains"] == 1.0 and graph["unanswerable_ok"] == 1.0


def test_reached_the_prompt_is_reported_per_question_and_tells_prefetch_from_the_hop(all_modes):
    details = all_modes[2]["questions"]
    for mode in ("graph", "naive", "keyword"):
        row = next(q for q in details[mode] if q["kind"] == "attachment" and q["line"] == 1)
        assert set(row["reached_prompt"]) <= set(row["expected"])
        assert all(p.split(":")[-1] in row["reached_prompt"] or not p.startswith(row["shown"][0].split(":")[0])
                   for p in row["prompted"] if p.endswith(tuple(row["expected"])))
    graph = next(q for q in details["graph"] if q["line"] == 1)
    assert graph["reached_prompt"] == ["附件2"] and any(p.endswith(":附件2") for p in graph["prompted"])


def test_bad_lines_are_named_and_the_rest_still_runs(all_modes):
    _, lines, details = all_modes
    skipped = {s["line"]: s["reason"] for s in json.loads(lines[-1])["skipped"]}
    assert set(skipped) == {2, 3}
    assert "not JSON" in skipped[2] and "不存在的预案.docx" in skipped[3] and "not in the corpus" in skipped[3]
    table = [line for line in lines if line.split() and line.split()[0] in {"1", "4", "5", "6"}]
    assert len(table) == 4 * 3  # every runnable line, once per mode
    assert [q["line"] for q in details["questions"]["graph"]] == [1, 4, 5, 6]


def test_a_question_file_with_one_mode_through_the_command_line(question_file):
    run = subprocess.run([sys.executable, "-m", "kb.eval", "--corpus", str(DEMO_CORPUS), "--questions",
                          str(question_file), "--mode", "naive"], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    last = json.loads(run.stdout.strip().splitlines()[-1])
    assert AGGREGATE_KEYS <= set(last) and last["mode"] == "naive" and last["questions"] == 4
    assert ":2: skipped: not JSON" in run.stderr


def test_an_empty_corpus_is_a_clear_error(tmp_path, question_file, capsys):
    (tmp_path / "empty").mkdir()
    code = kb_eval.main(["--corpus", str(tmp_path / "empty"), "--questions", str(question_file)])
    assert code == 2
    assert "holds no .docx/.doc/.pdf/.xlsx/.xls/.csv/.md/.txt/.html/.htm files" in capsys.readouterr().err


def test_the_bundled_question_file_parses_and_covers_every_document_and_kind():
    questions, problems = load_questions(DATA_DIR / "questions.jsonl")
    assert not problems and len(questions) >= 40
    kinds = [q.kind for q in questions]
    assert kinds.count("attachment") >= 25 and kinds.count("body") >= 8 and kinds.count("unanswerable") >= 8
    assert len({q.doc for q in questions if q.kind == "attachment"}) == 6


def test_the_keyword_workflow_matches_labels_across_the_library(tmp_path):
    """The FastGPT-style hop takes the first name that contains the line: another document's 附件4."""
    svc = open_service(load_settings(env={}, store_dir=tmp_path / "store"))
    try:
        svc.stores.ingestor.ingest([DEMO_CORPUS], "demo")
        snapshot = svc.read.current()
        names = attachment_names(snapshot.catalog.of_libraries(None))
        park = next(d.id for d in snapshot.documents.values() if d.name == PARK)
        hop = keyword_hop("答案 [1]\n\n**相关附件**\n- 附件4\n- 附件99\n", names, svc.stores.vectors, snapshot.view,
                          [], {})
        first, missing = hop.items
        assert first.resolved and first.label == "附件4" and first.doc_id != park and first.content
        assert not missing.resolved and "附件99内容未检索到确证" in hop.block
        pipeline = KeywordPipeline(svc.settings, svc.read, svc.pipeline.retriever, svc.history)
        events = list(pipeline.run(TurnRequest("绿洲化工园区应急指挥部的24小时值班电话是多少？")))
        content = "".join(e.data["text"] for e in events if e.type == "content")
        section = content.split("**相关附件**")[1].split("**相关附件内容：**")[0]
        lines = [line.strip() for line in section.splitlines() if line.strip()]
        assert lines and all(re.fullmatch(r"- (?:附件|附录|附表)[0-9A-Z-]+|- 无", line) for line in lines), lines
        assert not [e for e in events if e.type == "thinking" and "图谱预取" in e.data["text"]]
    finally:
        svc.close()


def test_questions_asked_in_a_conversation_record_their_history(tmp_path):
    """A line's history is asked first; --with-history 1 asks every question after the one before it too."""
    path = tmp_path / "conversation.jsonl"
    follow = {"doc": "西岭街道防汛应急预案.txt", "question": "西岭街道呢？", "history": ["东岭街道有几艘冲锋舟？存放在哪里？"],
              "attachments": ["附件4：防汛抢险物资储备清单"], "answer_contains": ["5艘", "西岭防汛站"], "kind": "attachment"}
    path.write_text("\n".join(json.dumps(q, ensure_ascii=False) for q in (GOOD[2], follow, GOOD[1])) + "\n", encoding="utf-8")
    out = tmp_path / "eval.json"
    stdout = io.StringIO()
    with contextlib.redirect_stdout(stdout):
        code = kb_eval.main(["--corpus", str(DEMO_CORPUS), "--questions", str(path), "--with-history", "1",
                             "--json", str(out)])
    assert code == 0 and "each after the 1 before it" in stdout.getvalue()
    rows = json.loads(out.read_text(encoding="utf-8"))["questions"]["graph"]
    assert [r["history"] for r in rows] == [
        [], [GOOD[2]["question"], follow["history"][0]], ["西岭街道呢？"]]
    assert all(r["answer_contains_ok"] for r in rows), [r["answer"] for r in rows]  # unrelated history changes nothing
