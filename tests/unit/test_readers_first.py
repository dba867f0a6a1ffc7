"""Readers first (kb/readers_first.py): a write's step waits for the turns in flight, with real threads."""
from __future__ import annotations

import threading
import time

import kb.readers_first as readers_first
from kb.readers_first import ReadersFirst


def _step_in_thread(readers: ReadersFirst) -> tuple[threading.Thread, threading.Event]:
    stepped = threading.Event()

    def write() -> None:
        readers.step()
        stepped.set()

    thread = threading.Thread(target=write)
    thread.start()
    return thread, stepped


def test_a_step_waits_while_a_turn_is_in_flight_and_goes_when_the_last_one_ends():
    readers = ReadersFirst()
    with readers.reading():
        with readers.reading():  # two turns at once
            thread, stepped = _step_in_thread(readers)
            assert not stepped.wait(0.2)
        assert not stepped.wait(0.2)  # one turn is still in flight
    assert stepped.wait(1.0)
    thread.join()


def test_a_step_with_no_turn_in_flight_goes_at_once():
    readers = ReadersFirst()
    started = time.perf_counter()
    readers.step()
    assert time.perf_counter() - started < 0.1


def test_a_turn_that_never_ends_holds_a_step_back_for_the_bounded_wait_only(monkeypatch):
    monkeypatch.setattr(readers_first, "MAX_STEP_WAIT_S", 0.3)
    readers = ReadersFirst()
    with readers.reading():
        started = time.perf_counter()
        readers.step()
        waited = time.perf_counter() - started
    assert 0.25 < waited < 1.5


def test_a_turn_that_fails_midway_is_no_longer_in_flight():
    readers = ReadersFirst()
    try:
        with readers.reading():
            raise ValueError("the turn broke")
    except ValueError:
        pass
    started = time.perf_counter()
    readers.step()
    assert time.perf_counter() - started < 0.1


def test_a_process_is_serving_while_a_turn_is_in_flight_and_for_a_while_after(monkeypatch):
    readers = ReadersFirst()
    assert not readers.serving  # a bulk load: no turn ever
    with readers.reading():
        assert readers.serving
    assert readers.serving
    monkeypatch.setattr(readers_first, "SERVING_WINDOW_S", 0.0)
    assert not readers.serving
