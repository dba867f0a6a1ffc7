"""Conversations, messages and message↔document/chunk links in SQLite beside the stores."""
from __future__ import annotations

import json
import sqlite3
import threading
import time
import uuid
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator, Sequence

from kb.errors import UnknownConversation

_SCHEMA = """
CREATE TABLE IF NOT EXISTS conversations (
    id TEXT PRIMARY KEY, owner TEXT NOT NULL DEFAULT '', title TEXT NOT NULL, created REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS messages (
    id TEXT PRIMARY KEY, conversation_id TEXT NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
    seq INTEGER NOT NULL, role TEXT NOT NULL, content TEXT NOT NULL, thinking TEXT NOT NULL DEFAULT '',
    usage TEXT, extra TEXT, created REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS messages_by_conversation ON messages(conversation_id, seq);
CREATE TABLE IF NOT EXISTS message_links (
    message_id TEXT NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
    doc_id TEXT NOT NULL, chunk_id TEXT NOT NULL DEFAULT '', title TEXT NOT NULL DEFAULT '', score REAL
);
CREATE INDEX IF NOT EXISTS links_by_message ON message_links(message_id);
"""


@dataclass(frozen=True)
class MessageLink:
    """A document (and chunk) a message drew on."""

    doc_id: str
    chunk_id: str = ""
    title: str = ""
    score: float | None = None


@dataclass(frozen=True)
class Message:
    id: str
    conversation_id: str
    role: str  # user | assistant
    content: str
    thinking: str = ""
    usage: dict | None = None
    extra: dict = field(default_factory=dict)  # what the UI needs to redraw the turn (citations, paths…)
    links: tuple[MessageLink, ...] = ()


@dataclass(frozen=True)
class Conversation:
    id: str
    owner: str
    title: str
    created: float


class History:
    """Conversation storage; safe to share between threads."""

    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA foreign_keys = ON")
        self._db.execute("PRAGMA journal_mode = WAL")
        self._db.executescript(_SCHEMA)
        self._lock = threading.Lock()

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        """One write transaction under the lock: committed when the block ends, rolled back on any failure.

        Any failure, not only sqlite3.Error: a str that cannot be encoded (a lone surrogate) raises
        UnicodeEncodeError inside the transaction, and a transaction left open would make every later write fail
        with "cannot start a transaction within a transaction".
        """
        with self._lock:
            self._db.execute("BEGIN")
            try:
                yield self._db
                self._db.execute("COMMIT")
            except BaseException:
                if self._db.in_transaction:  # a failed COMMIT (busy, disk full) leaves it open too
                    self._db.execute("ROLLBACK")
                raise

    def create_conversation(self, title: str, owner: str = "") -> Conversation:
        """A new conversation titled by its first question."""
        conversation = Conversation(uuid.uuid4().hex, owner, title[:80], time.time())
        with self._write() as db:
            db.execute("INSERT INTO conversations VALUES (?, ?, ?, ?)", (conversation.id, owner, conversation.title, conversation.created))
        return conversation

    def get_conversation(self, conversation_id: str) -> Conversation:
        """The conversation, or UnknownConversation."""
        with self._lock:
            row = self._db.execute("SELECT id, owner, title, created FROM conversations WHERE id = ?", (conversation_id,)).fetchone()
        if row is None:
            raise UnknownConversation(conversation_id)
        return Conversation(*row)

    def list_conversations(self, owner: str | None = None, limit: int = 50) -> list[Conversation]:
        """Newest first; only the owner's when an owner is given."""
        sql = "SELECT id, owner, title, created FROM conversations"
        args: tuple = ()
        if owner is not None:
            sql += " WHERE owner = ?"
            args = (owner,)
        with self._lock:
            rows = self._db.execute(sql + " ORDER BY created DESC LIMIT ?", (*args, limit)).fetchall()
        return [Conversation(*row) for row in rows]

    def add_message(
        self,
        conversation_id: str,
        role: str,
        content: str,
        thinking: str = "",
        usage: dict | None = None,
        extra: dict | None = None,
        links: Sequence[MessageLink] = (),
        message_id: str | None = None,
    ) -> str:
        """Append a message (with its document links) and return its id."""
        message_id = message_id or uuid.uuid4().hex
        with self._write() as db:
            seq = db.execute(
                "SELECT COALESCE(MAX(seq), 0) + 1 FROM messages WHERE conversation_id = ?", (conversation_id,)
            ).fetchone()[0]
            db.execute(
                "INSERT INTO messages VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (message_id, conversation_id, seq, role, content, thinking,
                 json.dumps(usage) if usage else None, json.dumps(extra or {}, ensure_ascii=False), time.time()),
            )
            db.executemany(
                "INSERT INTO message_links VALUES (?, ?, ?, ?, ?)",
                [(message_id, l.doc_id, l.chunk_id, l.title, l.score) for l in links],
            )
        return message_id

    def messages(self, conversation_id: str) -> list[Message]:
        """Every message of a conversation in order, with links."""
        self.get_conversation(conversation_id)
        with self._lock:
            rows = self._db.execute(
                "SELECT id, conversation_id, role, content, thinking, usage, extra FROM messages "
                "WHERE conversation_id = ? ORDER BY seq", (conversation_id,)
            ).fetchall()
            links = self._db.execute(
                "SELECT l.message_id, l.doc_id, l.chunk_id, l.title, l.score FROM message_links l "
                "JOIN messages m ON m.id = l.message_id WHERE m.conversation_id = ?", (conversation_id,)
            ).fetchall()
        by_message: dict[str, list[MessageLink]] = {}
        for message_id, *rest in links:
            by_message.setdefault(message_id, []).append(MessageLink(*rest))
        return [
            Message(mid, cid, role, content, thinking, json.loads(usage) if usage else None,
                    json.loads(extra) if extra else {}, tuple(by_message.get(mid, ())))
            for mid, cid, role, content, thinking, usage, extra in rows
        ]

    def recent_user_messages(self, conversation_id: str, n: int) -> list[str]:
        """The last n user messages of a conversation, oldest first."""
        if n <= 0:
            return []
        with self._lock:
            rows = self._db.execute(
                "SELECT content FROM messages WHERE conversation_id = ? AND role = 'user' ORDER BY seq DESC LIMIT ?",
                (conversation_id, n),
            ).fetchall()
        return [r[0] for r in reversed(rows)]

    def forget_documents(self, doc_ids: Sequence[str]) -> int:
        """Delete every conversation with a message that drew on or quoted one of these documents; how many went.

        For a deleted private document: its text must not outlive it in anyone's history.
        """
        ids = list(dict.fromkeys(doc_ids))
        if not ids:
            return 0
        marks = ",".join("?" * len(ids))
        quoted = " OR ".join(["m.extra LIKE ?"] * len(ids))  # sources and hop items carry the doc id in extra
        with self._write() as db:
            doomed = [row[0] for row in db.execute(
                f"SELECT DISTINCT m.conversation_id FROM messages m WHERE {quoted} OR m.id IN "
                f"(SELECT message_id FROM message_links WHERE doc_id IN ({marks}))",
                (*(f"%{_like(i)}%" for i in ids), *ids)).fetchall()]
            db.executemany("DELETE FROM conversations WHERE id = ?", [(c,) for c in doomed])
        return len(doomed)

    def recent_questions(self, conversation_id: str, n: int) -> list[str]:
        """The last n questions of a conversation, oldest first, each as it was read alone (a follow-up resolved:
        西岭街道呢？ stored as 西岭街道有几艘冲锋舟？), so that the next follow-up continues what was really asked."""
        if n <= 0:
            return []
        with self._lock:
            rows = self._db.execute(
                "SELECT content, extra FROM messages WHERE conversation_id = ? AND role = 'user' ORDER BY seq DESC LIMIT ?",
                (conversation_id, n),
            ).fetchall()
        return [(json.loads(extra) if extra else {}).get("standalone") or content for content, extra in reversed(rows)]

    def last_answer(self, conversation_id: str) -> str:
        """The conversation's last message when it is an answer, else "" (a question still unanswered)."""
        with self._lock:
            row = self._db.execute(
                "SELECT role, content FROM messages WHERE conversation_id = ? ORDER BY seq DESC LIMIT 1",
                (conversation_id,),
            ).fetchone()
        return row[1] if row and row[0] == "assistant" else ""

    def close(self) -> None:
        self._db.close()


def _like(text: str) -> str:
    """text for a LIKE pattern without its wildcards (document ids are hex digests; this is belt and braces)."""
    return text.replace("%", "").replace("_", "")
