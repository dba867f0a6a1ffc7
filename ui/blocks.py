"""The Gradio Blocks: a chat with live side panels (graph paths, citations, thinking) and a knowledge-base tab."""
from __future__ import annotations

from pathlib import Path
from typing import Any, Callable, Iterator, Sequence

import gradio as gr

from kb.service import Service
from kb.turn import RANGES
from ui import spaces
from ui.chat import citations, paths_figure, thinking
from ui.chat.handlers import DEFAULTS, KNOBS, NO_CONVERSATIONS, OUTPUTS, ChatHandlers, Update
from ui.chat.paths_view import SHOW_ALL
from ui.chat.share_panel import build_share_panel, wire_share
from ui.compare.run import bundled_questions
from ui.compare.tab import build_compare_tab
from ui.evaluation.tab import build_eval_tab
from ui.library.render import PRIVATE_LIBRARY, library_choices
from ui.library.tab import build_knowledge_tab
from ui.page_state import PageState
from ui.theme import CSS, THEME
from ui.uploaded import SessionUploads

__all__ = ["CSS", "THEME", "EXAMPLES", "build_demo"]

QUESTIONS = Path(__file__).resolve().parent.parent / "data" / "questions.jsonl"  # the bundled evaluation questions

# Each answer needs an attachment that retrieval alone would not bring: the walkthrough's four hops.
EXAMPLES = (
    "园区公共应急事故池的有效容积是多少？",  # body “详见附件8” → 附件8 “见附件12” → 附件12 (two hops)
    "滨江物流园应急值班室电话是多少？",  # 附件4 “见附件3” → 附件3, an attachment that arrived as its own file
    "东岭街道有几艘冲锋舟？存放在哪里？",  # the right 附件4 of two template-twin documents
    "大型餐饮企业的餐厨垃圾收运费是多少？",  # 《餐厨垃圾收运价格表》 by title → 附表1
)
PLACEHOLDER = "**问一个答案藏在附件里的问题**，或点一个示例："
INTRO = (
    "正文只写“详见附件12”，数据却在附件12里。annex-rag 把文档、附件和它们之间的引用存成图："
    "检索命中正文后，沿 **REFERENCES** 边跳到附件本身，把附件原文连同引用一起给出。点一个示例问题试试。"
)


def build_demo(service: Service, extensions: Sequence[Callable[[], None]] = ()) -> gr.Blocks:
    """The whole UI over one opened Service; each extension is called inside the Blocks (e.g. to add MCP tools).

    Long on purpose: Gradio declares a layout inside one `with gr.Blocks()`, components beside their wiring.
    """
    handlers = ChatHandlers(service)
    uploads = SessionUploads()  # every tab's uploads a page holds: released when it closes (end_session below)
    # Gradio's cached files (uploads, CSV downloads) go an hour after they were made: nothing a visitor sent
    # or was sent outlives its use on disk.
    with gr.Blocks(title="annex-rag · 附件跳转问答", analytics_enabled=False, delete_cache=(600, 3600)) as demo:
        owner = gr.State("")
        conversation = gr.State("")
        turns = gr.State([])
        shown = gr.State(None)
        with gr.Row(elem_id="annex-header", equal_height=True):
            gr.Markdown(f"# annex-rag · 附件跳转问答\n<span class=\"annex-intro\">{INTRO}</span>", scale=4)
            gr.Markdown(_model_line(service), elem_id="annex-model", scale=1)
        if spaces.notice(service.settings):
            gr.Markdown(spaces.notice(service.settings), elem_id="annex-spaces-notice")
        with gr.Tabs():
            with gr.Tab("问答", id="chat"):
                with gr.Row(equal_height=False, elem_id="annex-main"):
                    with gr.Column(scale=11, elem_id="annex-left"):
                        chatbot = gr.Chatbot(
                            elem_id="annex-chat", height=640, show_label=False, layout="bubble", latex_delimiters=[],
                            allow_tags=False, buttons=["copy"], feedback_options=None, autoscroll=False,
                            placeholder=PLACEHOLDER, examples=[{"text": q} for q in EXAMPLES],
                        )
                        with gr.Row(equal_height=True):
                            question = gr.Textbox(label="问题", placeholder="输入问题，回车提问", show_label=False, scale=8, max_lines=4,
                                                  elem_id="annex-question")
                            send = gr.Button("提问", variant="primary", scale=1, min_width=80)
                        with gr.Row(elem_id="annex-examples"):  # hidden while the empty chat shows them
                            example_buttons = [gr.Button(q, size="sm", variant="secondary") for q in EXAMPLES]
                        with gr.Accordion("检索设置", open=False, elem_classes=["annex-later"]):
                            knobs = _settings_panel(service)
                        share = build_share_panel()
                        with gr.Accordion("历史会话", open=False, elem_classes=["annex-later"]):
                            new = gr.Button("新会话", size="sm")
                            conversations = gr.Radio([], label="本窗口的会话（点击重新打开）", elem_id="annex-conversations",
                                                     info=NO_CONVERSATIONS)
                    with gr.Column(scale=9, elem_id="annex-right"):
                        gr.Markdown("**图谱路径**：检索片段 → REFERENCES → 附件", elem_id="annex-paths-title")
                        paths = gr.Plot(paths_figure.placeholder(), show_label=False, elem_id="annex-paths")
                        all_paths = gr.Button(SHOW_ALL, size="sm", variant="secondary", elem_id="annex-all-paths")
                        with gr.Tabs():
                            with gr.Tab("引用"):
                                cites = gr.HTML(citations.EMPTY, elem_id="annex-citations", js_on_load=None)
                                citation_select = gr.Dropdown([], label="查看来源", elem_id="annex-citation-select")
                                source = gr.HTML(citations.render_source(None, None), elem_id="annex-source",
                                                 js_on_load=None)
                            with gr.Tab("思考"):
                                thoughts = gr.HTML(thinking.EMPTY, elem_id="annex-thinking", js_on_load=None)
            with gr.Tab("对比", id="compare"):
                build_compare_tab(service, EXAMPLES, bundled_questions(QUESTIONS))
            with gr.Tab("评测", id="eval"):
                build_eval_tab(service, QUESTIONS, uploads)
            with gr.Tab("知识库", id="kb") as kb_page:
                kb_tab = build_knowledge_tab(service, uploads)
        for extension in extensions:
            extension()

        components = dict(question=question, chatbot=chatbot, conversation=conversation, owner=owner, turns=turns,
                          shown=shown, thinking=thoughts, citations=cites, citation_select=citation_select,
                          source=source, paths=paths, conversations=conversations)
        outputs = [components[name] for name in OUTPUTS]
        ask_inputs = [question, conversation, owner, turns, *knobs]

        def ask(request: gr.Request, *args: Any) -> Iterator[tuple]:  # the session from the connection
            for update in handlers.ask(*args, session=request.session_hash):
                yield _positional(update)

        asked = [gr.on([question.submit, send.click], ask, ask_inputs, outputs, api_name="ask",
                       api_visibility="undocumented", concurrency_limit=4, concurrency_id="ask")]
        for button in example_buttons:
            asked.append(button.click(lambda q=button.value: q, None, question, api_visibility="private").then(
                ask, ask_inputs, outputs, api_visibility="private", concurrency_limit=4, concurrency_id="ask"))
        def example(evt: gr.SelectData) -> str:  # an example question clicked inside the empty chat
            return evt.value["text"]

        asked.append(chatbot.example_select(example, None, question, api_visibility="private")
                     .then(ask, ask_inputs, outputs, api_visibility="private", concurrency_limit=4,
                           concurrency_id="ask"))
        all_paths.click(handlers.all_paths, [turns, shown], paths, api_visibility="private")
        def show_source(n: Any, t: list, s: int | None, request: gr.Request) -> str:
            return handlers.show_source(n, t, s, request.session_hash)

        citation_select.input(show_source, [citation_select, turns, shown], source, api_visibility="private")

        def show_turn(t: list, evt: gr.SelectData, request: gr.Request) -> tuple:  # a shared turn's reader too
            return _positional(handlers.show_turn(t, evt, request.session_hash))

        def libraries(chosen: list[str] | None, request: gr.Request) -> Any:
            present = kb_tab.handlers.libraries(request.session_hash)
            return gr.update(choices=library_choices(present), value=[x for x in chosen or () if x in present])

        asked.append(chatbot.select(show_turn, turns, outputs, api_visibility="private"))
        asked.append(conversations.input(lambda c, o: _positional(handlers.load_conversation(c, o)),
                                         [conversations, owner], outputs, api_visibility="private"))
        asked.append(new.click(lambda: _positional(handlers.new_conversation()), None, outputs, api_visibility="private"))
        # A page load fills in what it can in a moment: no spinner over every panel of a page that is not busy.
        demo.load(lambda o: _positional(handlers.on_load(o)), owner, outputs, api_visibility="private",
                  show_progress="hidden")
        wire_share(share, handlers, components, asked, outputs, _positional, demo.load)
        # a delete that took the chat's conversation (it quoted a private document) empties the chat at once
        kb_tab.deleted.then(lambda c, o: _positional(handlers.after_delete(c, o)), [conversation, owner], outputs,
                            api_visibility="private", show_progress="hidden")
        refresh_fn, refresh_inputs, refresh_outputs = kb_tab.refresh
        kb_page.select(refresh_fn, refresh_inputs, refresh_outputs, api_visibility="private")
        for trigger in (demo.load, *(event.then for event in kb_tab.changed)):  # another session may add a library
            trigger(libraries, knobs[0], knobs[0], api_visibility="private", show_progress="hidden")
        pages = PageState(demo)

        def end_page(request: gr.Request) -> None:  # the tab closed: its private library, its uploads, what it showed
            kb_tab.handlers.end_session(request)
            pages.forget(request.session_hash)

        demo.unload(end_page)
    return demo


def _positional(update: Update) -> tuple:
    """A handler's named updates in OUTPUTS order; gr.skip() for the outputs it leaves alone."""
    unknown = set(update) - set(OUTPUTS)
    if unknown:
        raise KeyError(f"unknown outputs {sorted(unknown)}; the outputs are {OUTPUTS}")
    return tuple(update[name] if name in update else gr.skip() for name in OUTPUTS)


def _settings_panel(service: Service) -> list[gr.components.Component]:
    """The knobs of a turn, in KNOBS order, with TurnRequest's defaults."""
    libraries = service.sessions.visible(None, service.read.current().libraries)  # shared: every page starts so
    knobs = {
        "library_ids": gr.CheckboxGroup(library_choices(libraries), label="知识库",
                                        info=f"不选 = 全部共享库和{PRIVATE_LIBRARY} · API：libraryIds"),
        "top_k": gr.Slider(*RANGES["top_k"], DEFAULTS.top_k, step=1, label="检索片段数",
                           info="每次检索取回的片段数：多则找得全，也更慢 · API：topK"),
        "threshold": gr.Slider(*RANGES["threshold"], DEFAULTS.threshold, step=0.05, label="相关度门槛",
                               info="相对最相关片段的得分比例，低于它的片段丢掉 · API：threshold"),
        "enable_hybrid_search": gr.Checkbox(DEFAULTS.enable_hybrid_search, label="混合检索（向量 + 关键词）",
                                            info="同时按词面（BM25）检索，专名、编号更准 · API：enableHybridSearch"),
        "enable_rerank": gr.Checkbox(DEFAULTS.enable_rerank, label="重排序",
                                     info="取回后再按与问题的贴合度排一次 · API：enableRerank"),
        "enable_context_expansion": gr.Checkbox(DEFAULTS.enable_context_expansion, label="带上相邻片段",
                                                info="把命中片段前后的片段一起给回答 · API：enableContextExpansion"),
        "hops": gr.Slider(*RANGES["hops"], DEFAULTS.hops, step=1, label="附件跳转步数",
                          info="沿“详见附件N”的引用预取几层附件；0 = 不预取 · API：hops"),
        "think": gr.Checkbox(DEFAULTS.think, label="先思考再回答",
                             info="让模型先写出思考过程（仅对支持的模型有效） · API：think"),
        "history_turns": gr.Slider(*RANGES["history_turns"], DEFAULTS.history_turns, step=1, label="参考前几轮问题",
                                   info="追问时，检索带上前面几轮的问题 · API：historyTurns"),
    }
    gr.Markdown(_model_line(service))
    return [knobs[name] for name in KNOBS]


def _model_line(service: Service) -> str:
    """Which model answers: the offline extractive answerer, or the endpoint's model."""
    if service.pipeline.model is None:
        return (f"**模型**：{service.pipeline.model_name}<span class=\"annex-model-note\"><br>"
                "无需密钥、不联网：回答句子逐字摘自原文，并注明出处。</span>")
    return (f"**模型**：{service.pipeline.model_name}<span class=\"annex-model-note\"><br>"
            "模型服务失败时自动改用离线抽取回答。</span>")
