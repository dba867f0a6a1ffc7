"""The walkthrough's pure functions without a browser: eval frames, the paths cap, declined panels, sharing, steps."""
from __future__ import annotations


import pandas as pd

from kb.eval.metrics import Outcome, Question
from kb.answer.prompts import NO_ANSWER, OFFLINE_LABEL
from kb.settings import load_settings
from ui.chat.turn_view import TurnView
from ui.chat.decline import closest_sources, declined, render_closest
from ui.evaluation.frames import FAIL, PASS, chart, filter_frame, fraction_keys, outcomes_frame, summary_frame
from ui.chat.paths_cap import cap_paths
from ui.chat.paths_view import turn_paths_figure
from ui.chat.share import answer_markdown, shared_turns
from ui.spaces import ephemeral_store
from ui.chat.thinking_steps import step_of, thinking_messages

AGGREGATES = {
    "graph": {"mode": "graph", "questions": 3, "attachment_recall": 0.9, "attachment_precision": 0.8,
              "answer_contains": 1.0, "unanswerable_ok": None, "reached_prompt": 0.95, "by_kind": {}, "p50_ms": 12.0},
    "naive": {"mode": "naive", "questions": 3, "attachment_recall": 0.5, "attachment_precision": 1.0,
              "answer_contains": 0.5, "unanswerable_ok": 1.0, "reached_prompt": 0.5, "by_kind": {}, "p50_ms": 9.0},
}


def test_the_frames_show_every_figure_the_evaluation_reports_including_new_ones():
    summary = summary_frame(AGGREGATES)
    assert list(summary["模式"]) == ["annex-rag 图谱模式", "朴素向量 RAG"]  # the 对比 tab's names
    assert "附件召回率" in summary.columns and "附件进入回答材料" in summary.columns
    assert "by_kind" not in summary.columns and summary.loc[0, "用时中位数（毫秒）"] == 12.0
    keys = fraction_keys(AGGREGATES)
    assert keys == ["attachment_recall", "attachment_precision", "answer_contains", "unanswerable_ok", "reached_prompt"]
    fig = chart(AGGREGATES)
    assert [t.name for t in fig.data] == ["annex-rag 图谱模式", "朴素向量 RAG"]
    assert list(fig.data[0].y)[-1] == "附件进入回答材料" and list(fig.data[1].x)[:3] == [0.5, 1.0, 0.5]
    assert list(fig.data[0].text)[3] == "—"  # no unanswerable question: shown as none, not as zero


def _outcome(line: int, kind: str, **scores) -> Outcome:
    q = Question(line, f"问题{line}", kind, "a.md", labels=("附件1",) if kind == "attachment" else ())
    return Outcome(q, "d1", 10.0, **scores)


def test_the_outcomes_table_marks_pass_and_fail_and_filters_by_mode_kind_and_result():
    outcomes = {
        "graph": [_outcome(1, "attachment", found=("附件1",), contains_ok=True),
                  _outcome(2, "unanswerable", unanswerable_ok=False)],
        "naive": [_outcome(1, "attachment", missing=("附件1",), contains_ok=True),
                  _outcome(2, "unanswerable", unanswerable_ok=True)],
    }
    frame = outcomes_frame(outcomes)
    assert len(frame) == 4 and list(frame["结果"]) == [PASS, FAIL, FAIL, PASS]  # a missed attachment fails
    assert frame.loc[2, "漏掉"] == "附件1"  # lists joined for the table and the CSV
    assert len(filter_frame(frame, mode="naive")) == 2
    assert list(filter_frame(frame, kind="unanswerable", result=PASS)["模式"]) == ["朴素向量 RAG"]
    assert filter_frame(frame, mode="graph", result=FAIL)["行"].tolist() == [2]
    assert filter_frame(frame, text="问题1")["行"].tolist() == [1, 1]
    assert filter_frame(pd.DataFrame(), mode="graph").empty


def _path(stage: str, chunk: str, attachment: str, doc: str = "d1") -> dict:
    return {"stage": stage, "steps": [{"kind": "chunk", "id": f"{doc}:{chunk}", "label": chunk, "doc_id": doc},
                                      {"kind": "attachment", "id": f"{doc}:{attachment}", "label": attachment,
                                       "doc_id": doc, "mention": f"见{attachment}"}]}


def test_the_paths_cap_keeps_the_answers_attachments_and_a_few_others_grouped_by_document():
    paths = [_path("prefetch", f"c{i}", f"附件{i}", "d2" if i % 2 else "d1") for i in range(12)]
    paths.append({"stage": "post_hop", "steps": [{"kind": "answer", "id": "answer", "label": "回答", "doc_id": ""},
                                                 {"kind": "attachment", "id": "d1:附件6", "label": "附件6",
                                                  "doc_id": "d1"}]})
    capped = cap_paths(paths, others=3)
    ends = [p["steps"][-1]["id"] for p in capped.paths]
    assert "d1:附件6" in ends and capped.total == 12 and capped.shown == 4 and capped.capped
    assert set(ends) == {"d1:附件0", "d1:附件2", "d1:附件4", "d1:附件6"}  # the answer's document first
    assert cap_paths(paths[:3]).capped is False  # few paths: all drawn

    view = TurnView("q", answer="答案 [1]", graph_paths=paths, done=True)
    capped_fig = turn_paths_figure(view, {})
    notes = lambda fig: "".join(a.text for a in fig.layout.annotations if a.text).replace("<br>", "")  # noqa: E731
    assert "共 12 个" in notes(capped_fig)
    nodes = sum(len(t.x) for t in capped_fig.data if t.mode == "markers+text")
    full = turn_paths_figure(view, {}, show_all=True)
    assert sum(len(t.x) for t in full.data if t.mode == "markers+text") > nodes and "共" not in notes(full)


def test_a_declined_answer_gets_its_closest_passages_and_no_paths():
    answer = f"{OFFLINE_LABEL}\n\n{NO_ANSWER}"
    assert declined(answer) and not declined(f"{NO_ANSWER}部分内容见附件 [2]") and not declined("答案 [1]")
    sources = [{"n": n, "doc_id": "d", "doc_title": "预案", "label": "", "title": "", "text": f"第{n}段" * 3,
                "score": score, "prefetched": n == 5} for n, score in ((1, 0.7), (2, 1.0), (3, 0.9), (4, 0.8), (5, 1.0))]
    assert [s["n"] for s in closest_sources(sources)] == [2, 3, 4]  # by relevance; prefetched ones left out
    html = render_closest(sources)
    assert html.count('class="decline-passage"') == 3 and "共检索到 5 段" in html and "第5段" not in html
    asked = "东岭街道有几艘冲锋舟？"  # ranked by the question's words each holds, not by the relative score
    near = [{**sources[0], "n": 6, "text": "冲锋舟：3艘，存放于东岭仓库。", "score": 0.2}, *sources]
    assert [s["n"] for s in closest_sources(near, asked)] == [6]  # the others hold none of its words
    html = render_closest(near, asked)
    assert "含问题词 2/3：东岭、冲锋舟" in html and "相关度" not in html and "第1段" not in html
    marked = [{**near[0], "text": "# 东岭街道防汛应急预案\n\n## 一、总则\n冲锋舟由 #3 仓库保管"}]
    assert "东岭街道防汛应急预案 一、总则 冲锋舟由 #3 仓库保管" in render_closest(marked, asked)  # no heading marks
    assert "没有检索到与问题用词相近的原文" in render_closest(sources, asked)
    for shown in (html, render_closest(sources, asked)):  # either way the panel says what to do next
        assert "换个说法再问、点一个示例问题，或在“知识库”页上传含有答案的文档" in shown
    view = TurnView("q", answer=answer, graph_paths=[_path("prefetch", "c1", "附件1")], done=True)
    fig = turn_paths_figure(view, {})
    assert not fig.data and "不画检索路径" in fig.layout.annotations[0].text
    faded = turn_paths_figure(view, {}, show_all=True)
    assert faded.data and all(t.opacity < 1 for t in faded.data if t.mode == "lines")


def test_the_markdown_copy_holds_the_question_the_answer_and_the_attachments_block():
    view = TurnView("冲锋舟有几艘？", answer="12艘 [1]", block="**相关附件内容：**\n\n**附件4-物资清单**\n冲锋舟 12 艘")
    text = answer_markdown(view)
    assert text.startswith("**问：** 冲锋舟有几艘？\n\n12艘 [1]\n\n**相关附件内容：**") and "冲锋舟 12 艘" in text
    assert answer_markdown(None) == ""


def test_a_conversation_link_resolves_only_a_well_formed_stored_id(tmp_path):
    from kb.answer.history import History

    history = History(tmp_path / "h.sqlite3")
    try:
        c = history.create_conversation("问", owner="someone")
        history.add_message(c.id, "user", "问")
        history.add_message(c.id, "assistant", "答 [1]", extra={"sources": []})
        [turn] = shared_turns(history, c.id)
        assert turn.question == "问" and turn.answer == "答 [1]"
        assert shared_turns(history, "0" * 32) is None and shared_turns(history, "' OR 1=1 --") is None
        assert shared_turns(history, "") is None
    finally:
        history.close()


def test_the_thinking_steps_nest_under_the_block_with_their_times():
    view = TurnView("q", trace=["检索查询：q", "检索：3 个片段", "图谱预取：预案 · 附件4 物资（1 跳，经“见附件4”）"],
                    answer="a", model="offline", elapsed_ms=40.0, done=True,
                    steps={"retrieval": 12.5, "prefetch": 0.4, "model": 20.0, "hop": 0.3},
                    attachments=[{"line": "附件4-物资", "label": "附件4", "resolved": True, "doc_title": "预案",
                                  "title": "物资"}])
    parent, *children = thinking_messages(view, "k", "T", "…")
    assert parent["metadata"] == {"title": "T", "id": "k", "status": "done", "duration": 0.04}
    assert parent["content"] == "检索 12 ms · 图谱预取 0.4 ms · 模型 20 ms · 回答后跳转 0.3 ms"
    assert [c["metadata"]["id"] for c in children] == ["k-retrieval", "k-prefetch", "k-model", "k-hop"]
    assert {c["metadata"]["parent_id"] for c in children} == {"k"}
    assert children[0]["metadata"]["duration"] == 0.013 and "检索：3 个片段" in children[0]["content"]
    assert "附件4" in children[1]["content"] and "附件4-物资" in children[3]["content"]
    assert step_of("上下文窗口：…") == "model" and step_of("检索查询：x") == "retrieval"
    pending = thinking_messages(TurnView("q", trace=["检索查询：q"]), "k", "T", "…")
    assert pending[0]["metadata"]["status"] == "pending" and pending[1]["metadata"]["status"] == "pending"


def test_the_spaces_notice_shows_only_for_a_store_inside_the_app_on_a_space(tmp_path):
    app = tmp_path / "app"
    on_space = dict(env={}, space_id="user/annex")
    assert ephemeral_store(load_settings(store_dir=app / ".annex-store", **on_space), app)
    assert not ephemeral_store(load_settings(store_dir=tmp_path / "data" / "store", **on_space), app)
    assert not ephemeral_store(load_settings(env={}, store_dir=app / ".annex-store"), app)  # not a Space
    assert load_settings(env={"SPACE_ID": "user/annex"}).space_id == "user/annex"


def test_compare_runs_the_evaluations_three_pipelines_and_measures_against_the_expected_attachments(service):
    from kb.turn import TurnRequest
    from ui.blocks import QUESTIONS
    from ui.compare.run import bundled_questions, column_markdown, compare
    from ui.compare.tab import GRAPH_WINS

    request = service.sessions.scope(TurnRequest(GRAPH_WINS[0], owner="t"), None)
    comparison = compare(service, request, bundled_questions(QUESTIONS))
    by_mode = {r.mode: r for r in comparison.results}
    assert list(by_mode) == ["naive", "keyword", "graph"] and comparison.expected
    assert comparison.expected <= by_mode["graph"].shown and not comparison.expected <= by_mode["naive"].shown
    assert comparison.missed(by_mode["graph"]) == [] and comparison.missed(by_mode["naive"])
    assert all(r.ms > 0 for r in comparison.results) and comparison.total_ms >= sum(r.ms for r in comparison.results)
    assert "✗ 漏掉 附件9" in column_markdown(comparison, by_mode["naive"])
    assert "答对 1 · 漏掉 0" in column_markdown(comparison, by_mode["graph"])
    other = compare(service, service.sessions.scope(TurnRequest("东岭街道有几艘冲锋舟？", owner="t"), None), ())
    assert other.expected is None and all(other.missed(r) == [] for r in other.results)  # no ground truth
    assert all("✗" not in column_markdown(other, r) and "没有标准答案" in column_markdown(other, r)
               for r in other.results)


def test_the_evaluation_runs_on_the_open_service_without_ingesting_again(service):
    from kb.eval.metrics import load_questions
    from ui.blocks import QUESTIONS
    from ui.evaluation.tab import evaluate

    before = service.read.current()
    questions, _ = load_questions(QUESTIONS)
    seen = []
    run = evaluate(service, questions, limit=5, progress=lambda done, desc: seen.append(done))
    assert run.questions == 5 and set(run.aggregates) == {"graph", "naive", "keyword"}
    assert all(len(o) == 5 for o in run.outcomes.values()) and seen[0] == (0, 15) and seen[-1] == (14, 15)
    assert run.aggregates["graph"]["questions"] == 5
    assert service.read.current() is before  # nothing was written: the read models were not rebuilt
