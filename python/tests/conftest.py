"""Shared set-up of the Python tests: no window or sound device needed, the
command line binary of this checkout for the differential tests, and a
stand-in for a search that never finishes in time."""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
from pathlib import Path

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def binary() -> Path:
    """The `retrograde` binary, built in release if it is not there."""
    path = Path(os.environ.get("RETROGRADE_BIN", ROOT / "target" / "release" / "retrograde"))
    if not path.exists():
        subprocess.run(
            ["cargo", "build", "--release", "--quiet", "--bin", "retrograde"], cwd=ROOT, check=True
        )
    return path


@pytest.fixture(scope="session")
def cli(binary):
    """Runs the binary; returns its stdout (it must succeed)."""

    def run(*args: str) -> str:
        done = subprocess.run([str(binary), *args], capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        return done.stdout

    return run


@contextlib.contextmanager
def served(binary: Path, threads: int, move_seconds: float):
    """A ``retrograde serve`` on a free loopback port for the ``with``
    block: its URL."""
    process = subprocess.Popen(
        [str(binary), "serve", "--addr", "127.0.0.1:0", "--threads", str(threads)]
        + ["--move-seconds", str(move_seconds)],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        line = process.stdout.readline()
        assert line.startswith("listening on "), line
        yield line.split()[-1]
    finally:
        process.terminate()
        process.wait(timeout=30)


def json_lines(text: str) -> list[dict]:
    """Each line of ``text`` as a JSON object."""
    return [json.loads(line) for line in text.splitlines()]


class NeverFinishes:
    """A stand-in for :class:`retrograde.Searcher` (monkeypatched into
    :mod:`retrograde.opponents`) whose searches never finish in time: it
    keeps the keyword arguments it was made with (``made``, of the last one
    made) and each search asked of it (``asked``: time limit, all moves)."""

    made: dict = {}

    def __init__(self, *args, **kwargs):
        NeverFinishes.made = kwargs
        self.asked: list[tuple[float | None, bool]] = []

    def best_actions(self, game, *, time_limit=None, all_moves=True):
        self.asked.append((time_limit, all_moves))
        return None
