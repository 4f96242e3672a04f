"""examples/python/perfect_move_rate.py (issue 87): its figures, asked of a
``retrograde serve`` on a small board through the batch endpoint, agree with
the same moves scored one by one through ``GET /api/v1/analyze``."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
import urllib.parse
import urllib.request

import pytest

from conftest import ROOT, served

EXAMPLE = ROOT / "examples" / "python" / "perfect_move_rate.py"


@pytest.fixture(scope="module")
def server(binary):
    """A server on a free loopback port: its URL."""
    with served(binary, threads=2, move_seconds=5) as url:
        yield url


def example():
    spec = importlib.util.spec_from_file_location("perfect_move_rate", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def analyze(url: str, moves: str) -> dict:
    query = urllib.parse.urlencode(
        {"game": "connect", "cols": 5, "rows": 4, "k": 4, "moves": moves}
    )
    with urllib.request.urlopen(f"{url}/api/v1/analyze?{query}", timeout=60) as response:
        return json.load(response)


@pytest.mark.parametrize("agent,opponent", [("centre", "random"), ("random", "self")])
def test_figures_agree_with_the_api_move_by_move(server, agent, opponent):
    args = ["--games", "6", "--seed", "3", "--agent", agent, "--opponent", opponent]
    board = ["--cols", "5", "--rows", "4", "-k", "4"]
    done = subprocess.run(
        [sys.executable, str(EXAMPLE), server, *args, *board, "--json"],
        capture_output=True,
        text=True,
        check=True,
    )
    figures = json.loads(done.stdout)
    moved = example().play_games(6, 3, agent, opponent, 5, 4, 4)
    assert figures["moves"] == len(moved) > 0
    perfect = best = 0
    for before, move in moved:
        answer = analyze(server, before)
        assert answer["reached"], answer
        mine = next(m for m in answer["moves"] if m["move"] == move)
        perfect += mine["value"] == answer["value"]
        best += mine["best"]
    assert figures["scored"] == len(moved) and figures["unscored"] == 0
    assert figures["perfect"] == perfect
    assert figures["best"] == best
    assert figures["perfect_move_rate"] == pytest.approx(perfect / len(moved))
    assert figures["best_move_rate"] == pytest.approx(best / len(moved))
    assert sum(figures["gave_away"].values()) == len(moved) - perfect
    # a random agent on 5 x 4 gives values away; best never exceeds perfect
    assert best <= perfect


def test_text_output_names_the_rates(server):
    done = subprocess.run(
        [sys.executable, str(EXAMPLE), server, "--games", "2", "--cols", "5", "--rows", "4"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert "perfect move rate 0." in done.stdout or "perfect move rate 1." in done.stdout
    assert "best move rate" in done.stdout
