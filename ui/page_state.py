"""What Gradio keeps on the server for one page, dropped as soon as the page closes.

Gradio holds each browser session's copy of what its page showed in the Blocks' state holder: every gr.State (the
chat's turns, with the passages each answer quoted) and the last value of every component an event touched (the
chat, the citations and source panels, the ingest results naming a private file, the graph paths). When the tab
closes Gradio only marks the session closed: its gr.State goes an hour later (in case the tab reconnects), its
components' values only when 10,000 newer sessions have pushed it out. Here a closed page is gone for good — its
private library is deleted at once (kb/session_libraries.py) — so what it showed goes with it, instead of staying
in memory as private text nobody can see and a share of memory every visitor adds to.
"""
from __future__ import annotations

import gradio as gr


class PageState:
    """The server-side state Gradio holds for the pages of one Blocks, forgotten page by page."""

    def __init__(self, blocks: gr.Blocks) -> None:
        self.blocks = blocks

    def forget(self, session: str | None) -> None:
        """Drop what Gradio holds for the session's page: its gr.State values (each delete_callback run), its
        components' values, and any message still queued for a page that will never read it."""
        if not session:
            return
        holder = self.blocks.state_holder  # set when the app is served, which is when a page can close
        holder.delete_state(session)  # gr.State's own clean-up, as Gradio would run it an hour from now
        with holder.lock:
            holder.session_data.pop(session, None)
            holder.time_last_used.pop(session, None)
        # outputs on their way to the page (a streamed answer the closed tab stopped reading)
        self.blocks._queue.pending_messages_per_session.pop(session, None)

    def holds(self, session: str | None) -> bool:
        """Whether Gradio holds state for the session's page."""
        return bool(session) and session in self.blocks.state_holder.session_data
