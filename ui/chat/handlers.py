"""The chat tab's handlers: ask (streaming), reload a conversation, show a turn's or a citation's panels.

Handlers yield dicts keyed by the names in OUTPUTS; ui/blocks.py turns them into positional updates, with
gr.skip() for every panel a step leaves alone. All per-user data arrives as arguments (gr.State) and leaves
as outputs: nothing here is shared between sessions except the Service.
"""
from __future__ import annotations

import time
import uuid
from dataclasses import replace
from typing import Any, Iterator, Sequence

import gradio as gr

from kb.errors import AnnexError, UnknownConversation, UnknownLibrary
from kb.service import Service
from kb.text import visible
from kb.turn import TurnRequest
from ui.chat import citations, paths_figure, thinking
from ui.chat.decline import closest_choices, declined, render_closest
from ui.chat.paths_view import turn_paths_figure
from ui.chat.turn_view import TurnView, chat_messages, find_source, texts_needed, turn_at, turns_from_history
from ui.safe import inform, warn

OUTPUTS = ("question", "chatbot", "conversation", "owner", "turns", "shown", "thinking", "citations",
           "citation_select", "source", "paths", "conversations")
# The settings panel's knobs: TurnRequest field names, in the order of the panel's inputs.
KNOBS = ("library_ids", "top_k", "threshold", "enable_hybrid_search", "enable_rerank", "enable_context_expansion", "hops",
         "think", "history_turns")
DEFAULTS = TurnRequest("")
NO_CONVERSATIONS = "还没有会话：提一个问题，这里就会列出它。"
EMPTY_QUESTION = "还没有输入问题：在下面的输入框里写一个问题，或点一个示例问题。"  # the pipeline's own message is for the API
# A conversation can go while its page still shows it: deleting a private document forgets the conversations that
# quoted it (what they quoted must not outlive it), and a private library's conversations go with its session.
CONVERSATION_GONE = ("之前的对话已不在（它引用的文档已被删除，或会话已过期），"
                     "这个问题已在新的对话中回答；之前的问答不再作为上下文。")
CONVERSATION_GONE_LOAD = "这个对话已不在了：它引用的文档已被删除，或会话已过期。请开始新的对话。"
# Said the moment a delete takes the page's conversation with it, before anyone asks into the void.
CONVERSATION_DELETED = ("刚删除的文档被当前对话引用过：这个对话已随文档一起删除，问答页已清空；"
                        "下一个问题开始新的对话。")
LIBRARY_GONE = "检索设置里选的库“{library}”已不存在（它的文档已被删除）：请在“检索设置”里重新选择要检索的库。"
Update = dict[str, Any]


def new_owner() -> str:
    """A fresh per-session owner id for conversations."""
    return uuid.uuid4().hex


class ChatHandlers:
    """Event handlers of the chat tab over one shared Service."""

    def __init__(self, service: Service) -> None:
        self.service = service

    def request(self, question: str, conversation_id: str, owner: str, *knobs: Any) -> TurnRequest:
        """The TurnRequest for a question and the settings accordion's values (in KNOBS order)."""
        values = dict(zip(KNOBS, knobs, strict=True))
        kinds = {name: type(getattr(DEFAULTS, name)) for name in KNOBS}  # int, float, bool; tuple for library_ids
        return TurnRequest(query=question or "", conversation_id=conversation_id or None, owner=owner,
                           **{name: kinds[name](value or ()) if kinds[name] is tuple else kinds[name](value)
                              for name, value in values.items()})

    def ask(self, question: str, conversation_id: str, owner: str, turns: Sequence[TurnView], *knobs: Any,
            session: str | None = None) -> Iterator[Update]:
        """Run one turn over the libraries `session` may see and stream the chat and the side panels."""
        owner = owner or new_owner()
        if not visible(question if isinstance(question, str) else ""):  # zero-width or control characters alone too
            warn(EMPTY_QUESTION)
            yield {"owner": owner}
            return
        try:
            request = self.service.sessions.scope(self.request(question, conversation_id, owner, *knobs), session)
            try:
                events = self.service.pipeline.run(request)
            except UnknownConversation:  # gone while the page showed it: the question opens a new conversation
                events = self.service.pipeline.run(replace(request, conversation_id=None))
                warn(CONVERSATION_GONE)
                conversation_id = ""
        except UnknownLibrary as exc:  # picked in the settings, deleted since: nothing was stored
            warn(LIBRARY_GONE.format(library=exc.library))
            yield {"owner": owner}
            return
        except AnnexError as exc:  # InvalidRequest: nothing was stored
            warn(exc)
            yield {"owner": owner}
            return
        view = TurnView(question.strip())
        turns = [*turns, view] if conversation_id else [view]  # a new conversation (a shared page's too) starts empty
        yield {"question": "", "chatbot": chat_messages(turns), "owner": owner, "turns": turns, "shown": len(turns) - 1,
               "thinking": thinking.render_thinking(view), "citations": citations.PENDING,
               "citation_select": gr.update(choices=[], value=None), "source": citations.render_source(None, None),
               "paths": paths_figure.placeholder()}
        try:
            for event in events:
                view.apply(event)
                if event.type == "conversation_id":
                    yield {"conversation": view.conversation_id}
                elif event.type in ("thinking", "error"):
                    if event.type == "error":
                        message = event.data.get("message", "")
                        warn(f"模型服务出错，已改用离线抽取回答：{message}" if event.data.get("fallback")
                                         else f"回答失败：{message}")
                    yield {"chatbot": chat_messages(turns), "thinking": thinking.render_thinking(view)}
                elif event.type in ("content", "attachments"):
                    yield {"chatbot": chat_messages(turns)}
                elif event.type == "graph_paths":
                    yield {"paths": turn_paths_figure(view, self.titles())}
                elif event.type == "done":
                    stored = self.stored_extra(view)
                    view.sources, view.standalone = list(stored.get("sources", [])), stored.get("standalone", "")
                    yield {"chatbot": chat_messages(turns), **self.panels(view, paths=False),
                           "conversations": self.conversation_choices(owner, view.conversation_id)}
        except AnnexError as exc:  # a store failed mid-turn: say so where the answer would be
            view.warnings.append(str(exc))
            view.answer += f"\n\n⚠️ 回答中断：{exc}"
            warn(exc)
            yield {"chatbot": chat_messages(turns), "thinking": thinking.render_thinking(view)}

    def panels(self, view: TurnView | None, paths: bool = True, reader: str | None = "") -> Update:
        """Every side panel for one turn (None: the empty panels).

        With `reader` (a session hash, or None for nobody's) the panels read the current text only of documents
        that session may see; others show the text the turn quoted. "" (the default) reads every document.
        """
        if view is None:
            return {"thinking": thinking.EMPTY, "citations": citations.EMPTY, "citation_select": gr.update(choices=[], value=None),
                    "source": citations.render_source(None, None), "paths": paths_figure.placeholder()}
        graph = self.service.stores.graph
        readable = self.readable(reader)
        texts = {doc_id: graph.document_text(doc_id) if readable(doc_id) else None for doc_id in texts_needed(view)}
        if declined(view.answer):  # nothing answered: the closest few passages, not every retrieved source
            asked = view.standalone or view.question
            choices = closest_choices(view.sources, asked)
            listing = render_closest(view.sources, asked)
        else:
            choices = citations.citation_choices(view.referenced_docs, view.sources)
            listing = citations.render_citations(view.referenced_docs, view.sources, texts, view.answer)
        first = find_source(view, choices[0][1]) if choices else None
        if first is not None and first["doc_id"] not in texts and readable(first["doc_id"]):
            texts[first["doc_id"]] = graph.document_text(first["doc_id"])
        update: Update = {
            "thinking": thinking.render_thinking(view),
            "citations": listing,
            "citation_select": gr.update(choices=choices, value=choices[0][1] if choices else None),
            "source": citations.render_source(first, texts.get(first["doc_id"]) if first else None, view.answer),
        }
        if paths:
            update["paths"] = turn_paths_figure(view, self.titles())
        return update

    def readable(self, reader: str | None) -> Any:
        """doc id → whether the panels may read its current text for `reader` ("" = anyone)."""
        if reader == "":
            return lambda doc_id: True
        documents = self.service.read.current().documents
        return lambda doc_id: doc_id in documents and self.service.sessions.may_see(reader, documents[doc_id].library)

    def all_paths(self, turns: Sequence[TurnView], shown: int | None) -> Any:
        """Every path of the shown turn, uncapped."""
        if shown is None or not 0 <= shown < len(turns):
            return gr.skip()
        return turn_paths_figure(turns[shown], self.titles(), show_all=True)

    def show_source(self, n: Any, turns: Sequence[TurnView], shown: int | None, reader: str | None = "") -> str:
        """The source the citation selector points at, in full (as quoted, for a document `reader` may not see)."""
        view = turns[shown] if shown is not None and 0 <= shown < len(turns) else None
        source = find_source(view, n) if view else None
        readable = source is not None and self.readable(reader)(source["doc_id"])
        text = self.service.stores.graph.document_text(source["doc_id"]) if readable else None
        return citations.render_source(source, text, view.answer if view else "")

    def show_turn(self, turns: Sequence[TurnView], evt: gr.SelectData, reader: str | None = "") -> Update:
        """The side panels of the turn whose message was clicked."""
        index = turn_at(turns, evt.index if isinstance(evt.index, int) else evt.index[0])
        if index is None:
            return {}
        return {"shown": index, **self.panels(turns[index], reader=reader)}

    def load_conversation(self, conversation_id: str | None, owner: str) -> Update:
        """A stored conversation of this session back in the chat, its last turn in the panels."""
        if not conversation_id:
            return {}
        try:
            conversation = self.service.history.get_conversation(conversation_id)
        except UnknownConversation:
            warn(CONVERSATION_GONE_LOAD)
            return {"conversations": gr.update(value=None)}
        if conversation.owner != owner:  # only reachable by a forged request: conversations are listed per owner
            warn("这个会话不属于当前会话窗口。")
            return {}
        turns = turns_from_history(self.service.history.messages(conversation_id))
        return {"chatbot": chat_messages(turns), "conversation": conversation_id, "turns": turns,
                "shown": len(turns) - 1 if turns else None, **self.panels(turns[-1] if turns else None)}

    def new_conversation(self) -> Update:
        """An empty chat; the next question starts a new conversation."""
        return {"chatbot": [], "conversation": "", "turns": [], "shown": None,
                "conversations": gr.update(value=None), **self.panels(None)}

    def after_delete(self, conversation_id: str | None, owner: str) -> Update:
        """A document was deleted: the chat empties, saying why, if its conversation went with it (it quoted a deleted
        private document); the 历史会话 list loses every conversation that went."""
        if not conversation_id or self._stored(conversation_id):
            return {"conversations": self.conversation_choices(owner, conversation_id or None)}
        inform(CONVERSATION_DELETED)
        return {**self.new_conversation(), "conversations": self.conversation_choices(owner, None)}

    def _stored(self, conversation_id: str) -> bool:
        try:
            self.service.history.get_conversation(conversation_id)
        except UnknownConversation:
            return False
        return True

    def on_load(self, owner: str) -> Update:
        """Page load: an owner id for this session and its conversations (none yet for a new one)."""
        owner = owner or new_owner()
        return {"owner": owner, "conversations": self.conversation_choices(owner, None)}

    def conversation_choices(self, owner: str, current: str | None) -> Any:
        """The Radio update listing this session's conversations, newest first."""
        choices = [(f"{time.strftime('%m-%d %H:%M', time.localtime(c.created))} · {c.title}", c.id)
                   for c in self.service.history.list_conversations(owner)]
        return gr.update(choices=choices, value=current, info="" if choices else NO_CONVERSATIONS)

    def titles(self) -> dict[str, str]:
        """doc id → title, from the pipeline's read model."""
        return {doc_id: s.title for doc_id, s in self.service.read.current().documents.items()}

    def stored_extra(self, view: TurnView) -> dict:
        """What the pipeline stored with the finished turn: its numbered sources, the question as it read it…"""
        for message in reversed(self.service.history.messages(view.conversation_id)):
            if message.id == view.message_id:
                return message.extra
        return {}
