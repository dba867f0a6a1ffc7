"""Readers first: a write steps aside while turns are being answered, so a chat does not wait behind an upload.

Chroma's add holds the interpreter (the GIL) for its whole call: 1,000 chunks held it 1.1 s at 20k chunks on this
machine, 100 chunks 140-400 ms at 92k, and no other thread runs meanwhile, so a question asked during an upload waited
for every such call of it in turn. A write therefore waits, before each step that holds the interpreter, until no
turn is in flight, and a process that serves turns writes in small steps. Turns that follow one another with no
pause at all (a benchmark's loop, a crowd) would hold a write back for ever: after MAX_STEP_WAIT_S it takes its step,
and the turn that starts during it waits for that one step.
"""
from __future__ import annotations

import threading
import time
from contextlib import contextmanager
from typing import Iterator

# How long a step waits for a moment with no turn in flight: an upload during a stream of turns still finishes
# (one step of SERVING_ADD_BATCH chunks every 2 s at worst), and a turn that never ends (a client that stopped
# reading its events) does not stop every upload.
MAX_STEP_WAIT_S = 2.0
# A process that answered a turn this recently is serving, and writes in small steps; a bulk load never answered
# one and writes in large steps (cheaper per chunk).
SERVING_WINDOW_S = 300.0


class ReadersFirst:
    """Counts the turns in flight; a writer's `step()` waits until none is, for at most MAX_STEP_WAIT_S."""

    def __init__(self) -> None:
        self._turns = 0
        self._last_turn = float("-inf")
        self._idle = threading.Condition()

    @contextmanager
    def reading(self) -> Iterator[None]:
        """Mark a turn in flight for the duration of the block."""
        with self._idle:
            self._turns += 1
            self._last_turn = time.monotonic()
        try:
            yield
        finally:
            with self._idle:
                self._turns -= 1
                self._last_turn = time.monotonic()
                if not self._turns:
                    self._idle.notify_all()

    def step(self) -> None:
        """Before a step of a write that holds the interpreter: wait until no turn is in flight (bounded)."""
        with self._idle:
            self._idle.wait_for(lambda: not self._turns, timeout=MAX_STEP_WAIT_S)

    @property
    def serving(self) -> bool:
        """Whether turns are in flight or were lately: writes should then take small steps."""
        with self._idle:
            return bool(self._turns) or time.monotonic() - self._last_turn < SERVING_WINDOW_S
