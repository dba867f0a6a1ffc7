"""What a turn's request must be before anything of it is stored: text that can be stored, fields in range, and
libraries, a document and a conversation that exist and are the caller's."""
from __future__ import annotations

from dataclasses import replace

from kb.answer.history import History
from kb.errors import InvalidRequest, ReadOnlyConversation, UnknownDocument, UnknownLibrary
from kb.search.readmodels import ReadModels
from kb.settings import Settings
from kb.text import visible
from kb.turn import MAX_LIBRARY_IDS, RANGES, TurnRequest


def validated(request: TurnRequest, settings: Settings, read: ReadModels, history: History) -> TurnRequest:
    """The request with its question trimmed (of whitespace and of characters nobody sees) and library ids deduplicated.

    Raises InvalidRequest, UnknownLibrary or UnknownConversation before anything is stored.
    """
    check_storable(request)
    if len(request.library_ids) > MAX_LIBRARY_IDS:
        raise InvalidRequest("libraryIds", f"libraryIds has {len(request.library_ids)} items, over the limit of "
                                           f"{MAX_LIBRARY_IDS}; name each library once, or leave it empty for all.")
    library_ids = tuple(dict.fromkeys(request.library_ids))
    query = visible(request.query) if isinstance(request.query, str) else ""  # U+200B alone is no question
    if not query:
        raise InvalidRequest("query", "The question is empty; type a question about the knowledge base.")
    limit = settings.max_question_chars
    if len(query) > limit:
        raise InvalidRequest("query", f"The question has {len(query)} characters, over the limit of {limit}; "
                                      "shorten it, or upload long text as a document to the knowledge base.")
    for name, field_name in (("topK", "top_k"), ("hops", "hops"), ("historyTurns", "history_turns")):
        value, (low, high) = getattr(request, field_name), RANGES[field_name]
        if not low <= value <= high:
            raise InvalidRequest(name, f"{name} must be between {low} and {high}, got {value}.")
    low, high = RANGES["threshold"]
    if not low <= request.threshold <= high:
        raise InvalidRequest("threshold", f"threshold must be between {low:g} and {high:g}, got {request.threshold}.")
    snapshot = read.current()
    for library in library_ids:
        if library not in snapshot.libraries:
            raise UnknownLibrary(library, snapshot.libraries)
    if request.document_id and request.document_id not in snapshot.documents:
        raise UnknownDocument(request.document_id)
    if request.conversation_id and history.get_conversation(request.conversation_id).owner != request.owner:
        raise ReadOnlyConversation(request.conversation_id)  # an API caller (owner "") owns only API conversations
    return replace(request, query=query, library_ids=library_ids)


def check_storable(request: TurnRequest) -> None:
    """Refuse text that cannot be stored or sent on: UTF-8 has no lone surrogates (JSON's "\\ud800" makes one)."""
    fields = [("query", request.query), ("conversationId", request.conversation_id),
              ("documentId", request.document_id), ("owner", request.owner)]
    fields += [("libraryIds", library) for library in request.library_ids]
    for name, value in fields:
        if not isinstance(value, str):
            continue
        try:
            value.encode("utf-8")
        except UnicodeEncodeError as exc:
            raise InvalidRequest(name, f"{name} holds a character that is not valid Unicode text "
                                       f"({value[exc.start]!r} at position {exc.start}, a lone UTF-16 surrogate); "
                                       "send the text as UTF-8 or as a complete \\ud83d\\ude00-style pair.") from exc
