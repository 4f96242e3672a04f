"""Issue 88: the front ends are thin. The command line (``search … --json``),
the HTTP server (``GET /api/v1/analyze``) and the Python package
(``Searcher.answer``) ask the one facade, so they give the same answer for
the same position: 30 positions of both board families, exact answers with
every move's value and the weak value alone of empty m,n,k boards (which
the facade answers by its race of search and provers). One thread each, so
that a search names the same best move in every front end."""

from __future__ import annotations

import json
import subprocess
import urllib.parse
import urllib.request

import pytest

import retrograde
from conftest import served

# (family, cols, rows, k, moves, weak): weak questions ask the value alone
# (one best move), the others every move's exact value
CASES = [
    ("mnk", 3, 3, 3, "", False),
    ("mnk", 3, 3, 3, "b2", False),
    ("mnk", 3, 3, 3, "a1 b2", False),
    ("mnk", 3, 3, 3, "a1 b2 c3", False),
    ("mnk", 3, 3, 3, "a1 a2 b1 b2", False),
    ("mnk", 3, 3, 3, "a1 a2 b1 b2 c1", False),
    ("mnk", 4, 4, 3, "", False),
    ("mnk", 4, 4, 3, "b2", False),
    ("mnk", 4, 4, 3, "b2 c3", False),
    ("mnk", 4, 4, 3, "a1 d4 b2", False),
    ("mnk", 4, 4, 4, "b2 c3 b3", False),
    ("mnk", 3, 3, 3, "", True),
    ("mnk", 4, 4, 3, "", True),
    ("mnk", 4, 4, 4, "", True),
    ("mnk", 5, 4, 4, "", True),
    ("connect", 4, 4, 4, "", False),
    ("connect", 4, 4, 4, "2 3 2", False),
    ("connect", 5, 4, 4, "", False),
    ("connect", 5, 4, 4, "3", False),
    ("connect", 5, 4, 4, "3 3", False),
    ("connect", 5, 4, 4, "3 3 3 3 2", False),
    ("connect", 5, 4, 4, "1 2 3 4 5", False),
    ("connect", 5, 4, 4, "3 2 3 2 3", False),
    ("connect", 5, 4, 4, "3 3 2 4 4 2", False),
    ("connect", 5, 4, 4, "3 3 3 2 2", True),
    ("connect", 7, 6, 4, "", False),
    ("connect", 7, 6, 4, "4", False),
    ("connect", 7, 6, 4, "4 4", False),
    ("connect", 7, 6, 4, "4 4 4", False),
    ("connect", 7, 6, 4, "3 4 5", False),
]

# the keys of a position answer, as `--json` prints it
ANSWER_KEYS = ["position", "to_move", "status", "winner", "reachable", "value", "depth", "score"]


@pytest.fixture(scope="module")
def server(binary):
    """A server on a free loopback port, one search thread: its URL."""
    with served(binary, threads=1, move_seconds=20) as url:
        yield url


def by_command(binary, family, cols, rows, k, moves, weak):
    args = [str(binary), "search", family, "--cols", str(cols), "--rows", str(rows)]
    args += ["--k", str(k), "--moves", moves, "--threads", "1", "--json", "-q"]
    args += ["--weak"] if weak else ["--all-moves"]
    done = subprocess.run(args, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def by_server(url, family, cols, rows, k, moves, weak):
    terms = {"game": family, "cols": cols, "rows": rows, "k": k, "moves": moves}
    terms |= {"precision": "weak", "detail": "best"} if weak else {"detail": "all"}
    query = urllib.parse.urlencode(terms)
    with urllib.request.urlopen(f"{url}/api/v1/analyze?{query}", timeout=120) as response:
        return json.load(response)


def by_python(family, cols, rows, k, moves, weak):
    searcher = retrograde.Searcher(family, cols, rows, k, threads=1)
    return searcher.answer(moves, weak=weak, all_moves=not weak, time_limit=60)


def shown(answer: dict) -> dict:
    """The answer's own keys (each front end adds its timing and counts)."""
    kept = {key: answer.get(key) for key in ANSWER_KEYS}
    kept["moves"] = [
        {key: m.get(key) for key in ("move", "value", "depth", "score", "best")}
        for m in answer["moves"]
    ]
    return kept


@pytest.mark.parametrize(("family", "cols", "rows", "k", "moves", "weak"), CASES)
def test_every_front_end_gives_the_facades_answer(
    binary, server, family, cols, rows, k, moves, weak
):
    case = (family, cols, rows, k, moves, weak)
    command = shown(by_command(binary, *case))
    served = shown(by_server(server, *case))
    python = shown(by_python(*case))
    assert command == served, f"command {command}\nserver {served}"
    assert command == python, f"command {command}\npython {python}"
    assert command["value"] is not None
    if weak:
        assert command["depth"] is None
