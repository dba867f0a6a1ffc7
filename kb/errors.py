"""The whole error tree of kb/ (graph/errors.py adds the graph store's branch): every message says what happened
and what to do; the CLI, eval and bench print an AnnexError as `error: …` instead of a traceback."""
from __future__ import annotations


class AnnexError(Exception):
    """Base class of every error annex-rag raises on purpose."""


class SettingsError(AnnexError, ValueError):
    """A setting has a value that cannot be used; the message names the ANNEX_ variable and its allowed values."""


class ParseError(AnnexError):
    """A file could not be read into text."""

    def __init__(self, file: str, reason: str) -> None:
        super().__init__(f"{file}: {reason}")
        self.file = file
        self.reason = reason


class IngestError(AnnexError):
    """A file could not be ingested (beyond parsing: linking, stores)."""

    def __init__(self, file: str, reason: str) -> None:
        super().__init__(f"{file}: {reason}")
        self.file = file
        self.reason = reason


# Search: embeddings, the vector store, rerank.

class EmbeddingError(AnnexError):
    """An embedder could not be built or could not embed."""


class EmbeddingCacheError(EmbeddingError):
    """The cache file cannot be read or written."""


class VectorStoreError(AnnexError):
    """Chroma failed; the message says what was attempted and what to do."""


class KeywordIndexError(AnnexError):
    """The keyword index (Tantivy) failed; the message says what was attempted and what to do."""


class RerankError(AnnexError):
    """The rerank endpoint failed."""


# A turn's request, and what it names.

class InvalidRequest(AnnexError):
    """A request field has a value the pipeline cannot use; nothing was stored."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field


class UnknownDocument(InvalidRequest):
    """A documentId that is not stored."""

    def __init__(self, document_id: str) -> None:
        super().__init__("documentId", f"Unknown document {document_id!r}.")


class UnknownLibrary(AnnexError):
    """A library id that holds no documents."""

    def __init__(self, library: str, known: set[str]) -> None:
        names = ", ".join(sorted(known)) or "none yet"
        super().__init__(f"Unknown library {library!r}; the libraries are: {names}.")
        self.library = library


class UnknownConversation(AnnexError):
    """A conversation id that is not stored."""

    def __init__(self, conversation_id: str) -> None:
        super().__init__(f"Unknown conversation id {conversation_id!r}; start a new conversation (leave the id empty).")
        self.conversation_id = conversation_id


class ReadOnlyConversation(AnnexError):
    """A turn on a conversation the caller does not own: a shared link reads it, only its owner adds turns."""

    def __init__(self, conversation_id: str) -> None:
        super().__init__(f"Conversation {conversation_id!r} belongs to someone else and is read-only; leave the "
                         "conversation id empty to start a conversation of your own.")
        self.conversation_id = conversation_id


class TooManyTokens(AnnexError):
    """A client sent too many wrong write tokens; it may try again after `retry_after` seconds."""

    def __init__(self, retry_after: int) -> None:
        super().__init__(f"Too many wrong tokens from this client; try again in {retry_after} s.")
        self.retry_after = retry_after


class ReservedLibrary(AnnexError):
    """A shared library was asked for under the reserved private prefix."""

    def __init__(self, library: str, prefix: str) -> None:
        super().__init__(f"Library names starting with {prefix!r} are reserved for visitors' private "
                         f"libraries; pick another name than {library!r}.")
        self.library = library


class UploadLimit(AnnexError):
    """An upload would pass a storage limit; `setting` names the ANNEX_ variable that sets it."""

    def __init__(self, setting: str, message: str) -> None:
        super().__init__(message)
        self.setting = setting


class NothingToSearch(UnknownLibrary):
    """No library this caller may see holds documents: nothing to search (never "every library")."""

    def __init__(self) -> None:  # skips UnknownLibrary's message: it would list libraries the caller may not see
        AnnexError.__init__(self, "No library you can search holds documents yet; upload a document first.")
        self.library = ""


# Answering: the chat model, agent mode and its tools.

class LLMError(AnnexError):
    """The chat model could not answer; partial is True when some answer content was already streamed."""

    def __init__(self, message: str, partial: bool = False) -> None:
        super().__init__(message)
        self.partial = partial


class AgentModeError(AnnexError):
    """Agent mode is on but there is no model that can call tools."""


class SchemaError(AnnexError):
    """A tool's parameter has a type that no JSON schema type stands for."""


class ToolError(AnnexError):
    """A tool argument names nothing or is out of range; the message says how to find a valid value."""


# Evaluation.

class EvalError(AnnexError):
    """The evaluation cannot start: no corpus, no questions."""
