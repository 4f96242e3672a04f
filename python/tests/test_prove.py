"""`retrograde.prove`: the library's prover cascade from Python, with the
same value and the same certificate as `retrograde prove mnk` (issue 74)."""

from __future__ import annotations

import json

import pytest

import retrograde


@pytest.mark.parametrize(
    ("cols", "rows", "k", "value", "method"),
    [
        (3, 3, 3, "draw", "zones"),
        (5, 5, 5, "draw", "pairing"),
        (5, 4, 4, "draw", "zones"),
        (4, 3, 3, "first", "proof-number search"),
    ],
)
def test_prove_gives_the_value_and_certificate_of_the_command(
    cli, tmp_path, cols, rows, k, value, method
):
    report = retrograde.prove(cols, rows, k, threads=1)
    assert report["proved"] is True
    assert (report["value"], report["method"]) == (value, method)
    path = tmp_path / "board.proof"
    board = ["--cols", str(cols), "--rows", str(rows), "--k", str(k)]
    shown = json.loads(
        cli("prove", "mnk", *board, "--proof", str(path), "--json", "--threads", "1")
    )
    assert (shown["value"], shown["method"]) == (value, method)
    assert report["certificate_text"] == path.read_text()
    # the same report, fields of time aside
    for key in ("seconds", "certificate", "certificate_text"):
        report.pop(key)
        shown.pop(key, None)
    assert report == shown


def test_prove_writes_its_certificate_and_names_the_keyword_it_refuses(tmp_path):
    path = tmp_path / "draw.proof"
    report = retrograde.prove(5, 5, 5, proof=path)
    assert report["certificate"] == str(path)
    assert path.read_text() == report["certificate_text"]
    taken = tmp_path / "notes.txt"
    taken.write_text("mine")
    with pytest.raises(ValueError, match=r"^proof= "):
        retrograde.prove(5, 5, 5, proof=taken)
    assert taken.read_text() == "mine"
    with pytest.raises(ValueError, match=r"^after= "):
        retrograde.prove(5, 5, 5, after="c3")
    with pytest.raises(ValueError, match="method="):
        retrograde.prove(5, 5, 5, method="guess")


def test_prove_out_of_time_says_why_and_claims_nothing():
    report = retrograde.prove(9, 4, 4, method="win", time_limit=0.05)
    assert report["proved"] is False
    assert report["value"] is None and report["certificate_text"] is None
    assert report["why_not"]


def test_searcher_answer_gets_the_provers_on_the_empty_board():
    """Issue 88: the race of search and provers lives in the facade, so
    `Searcher.answer(weak=True)` on an empty m,n,k board gets the provers
    that `search mnk --weak` gets. 5,5,5: the search alone needs about
    1.7 s; within 0.4 s the search stops after its share and the pairing
    proves the draw."""
    searcher = retrograde.Searcher("mnk", 5, 5, 5)
    answer = searcher.answer("", time_limit=0.4, weak=True, all_moves=False)
    assert answer is not None
    assert answer["value"] == "draw"
    assert answer["depth"] is None
