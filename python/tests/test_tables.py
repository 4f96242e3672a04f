"""Answers from Python equal the command line's JSON: every position of
saved tables (Connect Four 4×4, tic-tac-toe, 4×3 with three in a row),
the counts of a solve, and a few hundred positions answered by search."""

from __future__ import annotations

import json
import os
import subprocess

import numpy as np
import pytest

import retrograde
from conftest import json_lines
from retrograde import Game

#: Keys the command line adds to an answer that are not the answer's own.
RUN_KEYS = {
    "moves_played",
    "nodes",
    "seconds",
    "loaded",
    "threads",
    "nodes_per_second",
    "transposition_hits",
}


def every_position(family: str, cols: int, rows: int, k: int) -> list[str]:
    """A move list for every position legal play reaches (once each)."""
    seen: set[tuple[int, int]] = set()
    found: list[str] = []
    stack = [Game(family, cols, rows, k)]
    while stack:
        g = stack.pop()
        if g.masks in seen:
            continue
        seen.add(g.masks)
        found.append(g.moves)
        for a in g.legal_actions():
            child = g.copy()
            child.play(a)
            stack.append(child)
    return found


def compare_every_position(tmp_path, binary, family, cols, rows, k, table):
    """Every position's answer from ``table`` and from the same table saved
    and opened again equals ``retrograde query --positions``'s, streamed a
    line at a time (5×4 has 3.9 million positions)."""
    lines = every_position(family, cols, rows, k)
    path = tmp_path / "positions.txt"
    path.write_text("\n".join(lines) + "\n")
    saved = tmp_path / "table.rgt"
    table.save(str(saved))
    opened = retrograde.open_table(str(saved))
    command = [str(binary), "query", str(saved), "--positions", str(path), "--json"]
    with subprocess.Popen(command, stdout=subprocess.PIPE, text=True) as cli:
        count = 0
        for moves, line in zip(lines, cli.stdout, strict=True):
            want = json.loads(line)
            assert want.pop("moves_played") == moves
            assert opened.answer(moves) == want, moves
            assert table.answer(moves) == want, moves
            count += 1
    assert cli.returncode == 0
    return count


def test_every_position_of_connect_4x4(tmp_path, binary):
    table = retrograde.solve("connect", 4, 4)
    assert compare_every_position(tmp_path, binary, "connect", 4, 4, 4, table) == 161_029


@pytest.mark.parametrize(("cols", "rows", "k", "positions"), [(3, 3, 3, 5_478), (4, 3, 3, 111_973)])
def test_every_position_of_mnk(tmp_path, binary, cols, rows, k, positions):
    table = retrograde.solve("mnk", cols, rows, k)
    assert compare_every_position(tmp_path, binary, "mnk", cols, rows, k, table) == positions


@pytest.mark.skipif(not os.environ.get("RETROGRADE_LONG"), reason="a long run: RETROGRADE_LONG=1")
def test_every_position_of_connect_5x4(tmp_path, binary):
    table = retrograde.solve("connect", 5, 4)
    assert compare_every_position(tmp_path, binary, "connect", 5, 4, 4, table) == 3_945_711


@pytest.mark.parametrize(
    ("family", "cols", "rows", "k"), [("connect", 5, 4, 4), ("mnk", 4, 3, 3), ("mnk", 3, 3, 3)]
)
def test_summary_equals_the_solve_json(cli, family, cols, rows, k):

    want = json.loads(
        cli(family, "--cols", str(cols), "--rows", str(rows), "--k", str(k), "--json", "--quiet")
    )
    got = retrograde.solve(family, cols, rows, k, threads=1).summary()
    for key in ("seconds", "threads", "states_per_second", "positions_per_second"):
        want.pop(key, None)
    assert got == {key: v for key, v in want.items() if key in got}
    assert set(want) - set(got) <= {"loaded", "engine"}, set(want) - set(got)


def test_a_symbolic_tables_summary_equals_the_query_json(cli, tmp_path):
    """A symbolic table opened from Python sums itself up as ``query --check --json``
    prints it (the summary is the library's, written once)."""
    path = tmp_path / "c44.rsym"
    cli(
        "connect",
        "--cols",
        "4",
        "--rows",
        "4",
        "--engine",
        "symbolic",
        "--out",
        str(path),
        "--quiet",
    )
    want = json.loads(cli("query", str(path), "--check", "--json", "--quiet"))
    got = retrograde.open_table(str(path)).summary()
    assert got["value"] == "draw" and got["engine"] == "symbolic"
    assert got == {key: v for key, v in want.items() if key in got}
    assert set(want) - set(got) <= {
        "bytes",
        "checked",
        "certified",
        "seconds",
        "loaded",
        "threads",
    }, set(want) - set(got)


def test_solve_hands_a_board_past_the_dense_engine_to_the_symbolic_engine(cli):
    """The facade's choice, the command line's: 6×2 with k = 3 is past the dense engine's
    sides, so ``solve`` runs the symbolic engine (values, no depths), as ``retrograde mnk``
    does, and the two agree on the counts and on a position's values."""
    table = retrograde.solve("mnk", 6, 2, 3, threads=1)
    assert not table.has_depths
    want = json.loads(cli("mnk", "--cols", "6", "--rows", "2", "--k", "3", "--json", "--quiet"))
    got = table.summary()
    assert got["engine"] == "symbolic"
    assert got == {key: v for key, v in want.items() if key in got}
    answer = table.answer("a1")
    want = json.loads(
        cli("mnk", "--cols", "6", "--rows", "2", "--k", "3", "--moves", "a1", "--json", "--quiet")
    )
    assert answer["value"] == want["value"]
    assert [(m["move"], m["value"]) for m in answer["moves"]] == [
        (m["move"], m["value"]) for m in want["moves"]
    ]
    with pytest.raises(ValueError, match="symbolic engine"):
        table.save("never-written.rgt")


def random_positions(family, cols, rows, k, count, stones, seed):
    """``count`` distinct positions in play with ``stones`` stones each."""
    rng = np.random.default_rng(seed)
    found: dict[tuple[int, int], str] = {}
    while len(found) < count:
        g = Game(family, cols, rows, k)
        for _ in range(stones):
            if g.is_over:
                break
            actions = g.legal_actions()
            g.play(actions[int(rng.integers(len(actions)))])
        if not g.is_over and g.stones == stones:
            found.setdefault(g.masks, g.moves)
    return list(found.values())


@pytest.mark.parametrize(
    ("family", "cols", "rows", "k", "stones", "count"),
    [("connect", 6, 5, 4, 14, 120), ("connect", 7, 6, 4, 24, 60), ("mnk", 4, 4, 3, 5, 120)],
)
def test_search_answers_equal_the_cli(tmp_path, cli, family, cols, rows, k, stones, count):
    lines = random_positions(family, cols, rows, k, count, stones, seed=cols * rows)
    path = tmp_path / "positions.txt"
    path.write_text("\n".join(lines) + "\n")
    out = cli(
        "search",
        family,
        "--cols",
        str(cols),
        "--rows",
        str(rows),
        "--k",
        str(k),
        "--positions",
        str(path),
        "--all-moves",
        "--json",
        "--quiet",
    )
    searcher = retrograde.Searcher(family, cols, rows, k)
    for moves, want in zip(lines, json_lines(out), strict=True):
        want = {key: v for key, v in want.items() if key not in RUN_KEYS}
        assert searcher.answer(moves) == want, moves


def test_per_ply_arrays():
    counts = retrograde.per_ply(retrograde.solve("connect", 4, 4))
    assert counts["positions"].dtype == np.uint64 and len(counts["positions"]) == 17
    assert int(counts["positions"].sum()) == 161_029
    assert np.array_equal(
        counts["first_won"] + counts["first_drawn"] + counts["first_lost"], counts["positions"]
    )
