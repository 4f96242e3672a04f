"""Errors arrive as ordinary Python exceptions, bad arguments where they are
given; long calls release the GIL and stop on Ctrl-C."""

from __future__ import annotations

import _thread
import re
import signal
import subprocess
import threading
import time

import gymnasium
import pytest

import retrograde
from retrograde.opponents import MctsOpponent


def test_budget_refusal_is_a_memory_error():
    with pytest.raises(retrograde.BudgetError) as refused:
        retrograde.solve("connect", 6, 5, max_memory="1MiB")
    assert isinstance(refused.value, MemoryError)
    assert "budget" in str(refused.value)
    with pytest.raises(ValueError):
        retrograde.solve("connect", 4, 4, max_memory="lots")


def test_remedies_are_named_as_keyword_arguments(tmp_path):
    # issue 74, line 4: the library's remedies, in Python's words
    with pytest.raises(retrograde.BudgetError) as refused:
        retrograde.solve("mnk", 4, 4, 4, max_memory="1KiB")
    assert str(refused.value).endswith("(raise max_memory=)"), refused.value
    table = retrograde.solve("mnk", 3, 3)
    notes = tmp_path / "notes.txt"
    notes.write_text("mine")
    with pytest.raises(ValueError) as refused:
        table.save(str(notes))
    assert str(refused.value).endswith("give another path, or force=True to replace it"), (
        refused.value
    )
    with pytest.raises(ValueError) as refused:
        retrograde.prove(3, 3, 3, proof=notes)
    assert str(refused.value).startswith(f"proof= {notes}: exists")
    assert str(refused.value).endswith(
        "give another path, or replace_any_file=True to replace it"
    ), refused.value
    assert notes.read_text() == "mine"
    assert "--" not in str(refused.value)


def test_files(tmp_path):
    with pytest.raises(FileNotFoundError):
        retrograde.open_table(str(tmp_path / "missing.rgt"))
    table = retrograde.solve("mnk", 3, 3)
    path = tmp_path / "t.rgt"
    table.save(str(path))
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0xFF
    damaged = tmp_path / "damaged.rgt"
    damaged.write_bytes(bytes(data))
    with pytest.raises(retrograde.TableFileError) as bad:
        retrograde.open_table(str(damaged))
    assert isinstance(bad.value, OSError)
    # never replaces a file that is not a table
    other = tmp_path / "notes.txt"
    other.write_text("mine")
    with pytest.raises(ValueError):
        table.save(str(other))
    assert other.read_text() == "mine"
    table.save(str(other), force=True)
    assert retrograde.open_table(str(other)).answer("")["value"] == "draw"
    with pytest.raises(ValueError):
        retrograde.open_table(str(path)).save(str(tmp_path / "again.rgt"))


def test_bad_positions_are_value_errors():
    table = retrograde.solve("connect", 4, 4)
    with pytest.raises(ValueError, match="full"):
        table.answer("1 1 1 1 1")
    with pytest.raises(ValueError):
        table.answer(retrograde.Game("connect", 5, 4))
    with pytest.raises(ValueError):
        table.answer(42)
    searcher = retrograde.Searcher("connect", 7, 6)
    with pytest.raises(ValueError):
        searcher.answer("8")
    with pytest.raises(ValueError):
        searcher.answer("", time_limit=-1)


def test_a_search_out_of_time_is_none():
    searcher = retrograde.Searcher("connect", 8, 7)  # no book: hours
    assert searcher.answer("", time_limit=0.05) is None
    assert searcher.best_actions("", time_limit=0.05) is None


@pytest.fixture
def python_handles_ctrl_c():
    """Python's own Ctrl-C handler for the test: a shell starts a command in
    the background with SIGINT ignored, and then `interrupt_main` does
    nothing."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, previous)


def _interrupt_after(seconds: float) -> threading.Timer:
    timer = threading.Timer(seconds, _thread.interrupt_main)
    timer.start()
    return timer


def test_ctrl_c_stops_a_search(python_handles_ctrl_c):
    searcher = retrograde.Searcher("connect", 8, 7)
    started = time.monotonic()
    _interrupt_after(0.3)
    with pytest.raises(KeyboardInterrupt):
        searcher.answer("")  # hours without the interrupt
    assert time.monotonic() - started < 5


def test_ctrl_c_stops_a_solve(python_handles_ctrl_c):
    started = time.monotonic()
    _interrupt_after(0.3)
    with pytest.raises(KeyboardInterrupt):
        retrograde.solve("connect", 7, 4, threads=1)  # about 10 s without it
    assert time.monotonic() - started < 5


def test_ctrl_c_stops_mcts(python_handles_ctrl_c):
    started = time.monotonic()
    _interrupt_after(0.3)
    with pytest.raises(KeyboardInterrupt):
        # about 30 s without the interrupt
        retrograde.mcts_action(retrograde.Game("connect", 7, 6), 10_000_000, seed=1)
    assert time.monotonic() - started < 5


def test_threads_are_bounded_as_the_command_line_bounds_them(binary):
    """``threads`` past the command line's ``--threads`` range is refused
    with the range named (2**31 once tried to spawn that many threads); a
    count within it but past 16 a core is capped where the command line caps
    it, with a warning."""
    too_many = subprocess.run(
        [str(binary), "mnk", "--cols", "3", "--rows", "3", "--quiet", "--threads", "4097"],
        capture_output=True,
        text=True,
    )
    assert too_many.returncode != 0 and "1..=4096" in too_many.stderr
    for call in (
        lambda threads: retrograde.Searcher("connect", 4, 4, threads=threads),
        lambda threads: retrograde.solve("mnk", 3, 3, threads=threads),
    ):
        for threads in (2**31, 4097, 0, -1):
            with pytest.raises(ValueError, match="threads must be from 1 to 4096"):
                call(threads)
        with pytest.raises(TypeError, match="whole number"):
            call(2.0)
    assert retrograde._native.MAX_THREADS == 4096
    capped = subprocess.run(
        [str(binary), "mnk", "--cols", "3", "--rows", "3", "--quiet", "--threads", "4096"],
        capture_output=True,
        text=True,
    )
    cap = re.search(r"capped at (\d+)", capped.stderr).group(1)
    with pytest.warns(RuntimeWarning, match=f"threads=4096 is capped at {cap},"):
        table = retrograde.solve("mnk", 3, 3, threads=4096)
    assert table.answer("")["value"] == "draw"


def test_long_calls_release_the_gil():
    ticks = []
    stop = threading.Event()

    def tick():
        while not stop.is_set():
            ticks.append(1)
            time.sleep(0.01)

    thread = threading.Thread(target=tick)
    thread.start()
    retrograde.Searcher("connect", 6, 5).answer("", time_limit=0.5, weak=True)
    stop.set()
    thread.join()
    assert len(ticks) >= 10


NAN, INF = float("nan"), float("inf")


@pytest.mark.parametrize(
    ("kwargs", "error", "named"),
    [
        ({"opponent": None}, TypeError, "opponent"),
        ({"opponent": 3}, TypeError, "opponent"),
        ({"opponent": "best"}, ValueError, "opponent"),
        ({"playouts": -5}, ValueError, "playouts"),
        ({"playouts": 0}, ValueError, "playouts"),
        ({"playouts": 10**9}, ValueError, "playouts"),
        ({"playouts": 2.5}, TypeError, "playouts"),
        ({"opponent": "mcts", "playouts": -5}, ValueError, "playouts"),
        ({"time_limit": -1}, ValueError, "time_limit"),
        ({"time_limit": 0}, ValueError, "time_limit"),
        ({"time_limit": NAN}, ValueError, "time_limit"),
        ({"time_limit": INF}, ValueError, "time_limit"),
        ({"time_limit": "1"}, TypeError, "time_limit"),
        ({"prove_limit": -1}, ValueError, "prove_limit"),
        ({"prove_limit": NAN}, ValueError, "prove_limit"),
        ({"agent_player": 2}, ValueError, "agent_player"),
        ({"table": 3}, TypeError, "table"),
        ({"render_mode": "window"}, ValueError, "render_mode"),
    ],
)
def test_the_environment_refuses_bad_arguments_when_made(kwargs, error, named):
    """Each was accepted and failed only at the first step (or never)."""
    with pytest.raises(error, match=named) as refused:
        gymnasium.make("retrograde/ConnectFour-v0", cols=4, rows=4, **kwargs)
    assert "\n" not in str(refused.value)


@pytest.mark.parametrize(
    ("kwargs", "error", "named"),
    [
        ({"games": -1}, ValueError, "games"),
        ({"games": 0}, ValueError, "games"),
        ({"games": 2.5}, TypeError, "games"),
        ({"phases": 0}, ValueError, "phases"),
        ({"opponent": None}, TypeError, "opponent"),
        ({"time_limit": NAN}, ValueError, "time_limit"),
        ({"playouts": -5}, ValueError, "playouts"),
    ],
)
def test_evaluate_refuses_bad_arguments_before_playing(kwargs, error, named):
    """``games=-1`` played no game and reported nothing wrong."""
    table = retrograde.solve("mnk", 3, 3)
    with pytest.raises(error, match=named):
        retrograde.evaluate(lambda o, m: 0, family="mnk", cols=3, rows=3, table=table, **kwargs)
    with pytest.raises(TypeError, match="agent"):
        retrograde.evaluate(3, family="mnk", cols=3, rows=3, table=table)


def test_an_opponent_refuses_bad_arguments_when_made():
    with pytest.raises(ValueError, match="playouts"):
        MctsOpponent(-5)
    with pytest.raises(ValueError, match="exploration"):
        MctsOpponent(100, exploration=NAN)
