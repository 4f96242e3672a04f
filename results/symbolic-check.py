#!/usr/bin/env python3
"""Checks the symbolic engine's documented runs (results/symbolic/*.json,
written by results/symbolic.sh) against independent figures:

* count-WxH: the total against Markus Böck's published table of Connect
  Four position counts (markus7800/Connect4-Strong-Solver, README and paper
  Table 1; the exact values of the paper) and John Tromp's 7x6 count.
* solve-WxH: every per-ply count (positions, terminal, X/O wins, draws,
  first player won/drawn/lost) and the value against the explicit engine's
  report in results/connect/connect-WxH-k4.json.
* mnk-CxR-kK with an explicit-mnk-CxR-kK twin (the explicit engine's run,
  also in results/symbolic/): every per-ply count and the value equal.
* forward-mnk-CxR-kK: a forward pass alone (per-ply counts, no value):
  terminal = wins + draws on every ply, and every ply before the first
  player's k-th stone equals its count by binomials (no line can stand
  yet, so every placement of the stones is a position).
* mnk-5x5-kK: the value against the published one (a draw for k = 4, C. Y.
  Lee; a draw for k = 5), and each ply's counts for internal consistency
  (X can win + neither + O can win = positions, terminal = wins + draws).

Prints one line a run and exits 1 if any check fails.
Usage: results/symbolic-check.py   (from anywhere)
"""
import json
import pathlib
import sys

HERE = pathlib.Path(__file__).resolve().parent

# Böck's table: (width, height) -> positions (all reachable positions,
# those with a line included)
BOECK = {
    (9, 3): 4_816_325_017,
    (3, 9): 49_867_996,
    (4, 8): 1_104_642_469,
    (8, 4): 54_233_186_631,
    (5, 7): 14_171_315_454,
    (7, 5): 112_829_665_923,
    (6, 6): 69_173_028_785,
    (7, 6): 4_531_985_219_092,
    (6, 4): 94_910_577,
    (5, 5): 69_763_700,
    (6, 5): 2_818_972_642,
}
MNK_VALUES = {4: "draw", 5: "draw"}
MNK_PLY_KEYS = ["positions", "terminal", "x_wins", "o_wins", "draws",
                "x_can_win", "neither_can_win", "o_can_win"]
PLY_KEYS = ["positions", "terminal", "x_wins", "o_wins", "draws",
            "first_won", "first_drawn", "first_lost"]


def differences(report, explicit, keys):
    """Where the two reports' per-ply `keys` or values differ."""
    found = []
    if report["value"] != explicit["value"]:
        found.append(f"value {report['value']} != {explicit['value']}")
    for ours, theirs in zip(report["per_ply"], explicit["per_ply"], strict=True):
        for key in keys:
            if ours[key] != theirs[key]:
                found.append(f"ply {ours['ply']} {key} {ours[key]} != {theirs[key]}")
    return found


def check(name, report):
    kind, size = name.split("-", 1)
    if kind == "forward":
        return check_forward(size, report)
    if kind == "explicit":
        return [], "the explicit engine's reference for the run of the same name"
    cols, rows = (int(x) for x in size.split("-")[0].split("x"))
    problems = []
    if kind in ("count", "solve"):
        want = BOECK.get((cols, rows))
        if want is not None and report["positions"] != want:
            problems.append(f"positions {report['positions']} != Böck's {want}")
    if kind == "solve":
        path = HERE / "connect" / f"connect-{cols}x{rows}-k4.json"
        if not path.exists():
            return [f"no explicit report {path.name} to compare with"], "unchecked"
        explicit = json.loads(path.read_text())
        problems += differences(report, explicit, PLY_KEYS)
        how = "every per-ply count and the value equal the explicit engine's"
    elif kind == "mnk":
        k = int(size.split("-k")[1])
        twin = HERE / "symbolic" / f"explicit-{name}.json"
        if twin.exists():
            explicit = json.loads(twin.read_text())
            problems += differences(report, explicit, MNK_PLY_KEYS)
            how = "every per-ply count and the value equal the explicit engine's"
        else:
            if (cols, rows) == (5, 5) and report["value"] != MNK_VALUES[k]:
                problems.append(f"value {report['value']} != published {MNK_VALUES[k]}")
            for ply in report["per_ply"]:
                outcomes = ply["x_can_win"] + ply["neither_can_win"] + ply["o_can_win"]
                if outcomes != ply["positions"]:
                    problems.append(f"ply {ply['ply']}: outcomes != positions")
                if ply["x_wins"] + ply["o_wins"] + ply["draws"] != ply["terminal"]:
                    problems.append(f"ply {ply['ply']}: wins + draws != terminal")
            how = "value equals the published one; per-ply sums consistent"
    else:
        how = "count equals Böck's"
    return problems, how


def check_forward(name, report):
    """A forward pass of an m,n,k board (name mnk-CxR-kK)."""
    from math import comb
    cols, rows = (int(x) for x in name.split("-")[1].split("x"))
    k = int(name.split("-k")[1])
    cells = cols * rows
    problems = []
    for ply in report["per_ply"]:
        p = ply["ply"]
        if ply["x_wins"] + ply["o_wins"] + ply["draws"] != ply["terminal"]:
            problems.append(f"ply {p}: wins + draws != terminal")
        if p < 2 * k:
            x = (p + 1) // 2
            want = comb(cells, x) * comb(cells - x, p // 2)
            if ply["positions"] != want:
                problems.append(f"ply {p}: {ply['positions']} != {want} by binomials")
    if sum(ply["positions"] for ply in report["per_ply"]) != report["positions"]:
        problems.append("the plies do not add up to the total")
    return problems, f"plies 0-{2 * k - 1} equal their binomial counts; sums consistent"


def main():
    failed = False
    for path in sorted((HERE / "symbolic").glob("*.json")):
        problems, how = check(path.stem, json.loads(path.read_text()))
        if problems:
            failed = True
            print(f"{path.stem}: FAILED: " + "; ".join(problems[:5]))
        else:
            print(f"{path.stem}: ok ({how})")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
