#!/usr/bin/env python3
"""Checks the symbolic engine's documented runs (results/symbolic/*.json,
written by scripts/symbolic.sh) against independent figures:

* count-WxH: the total against Markus Böck's published table of Connect
  Four position counts (markus7800/Connect4-Strong-Solver, README and paper
  Table 1; the exact values of the paper) and John Tromp's 7x6 count; for
  7x6 every ply too, against the sums of Böck's per-ply won/drawn/lost
  (his solution_w7_h6/results_solve_w7_h6.csv), which equal OEIS A212693
  (Tromp, after Edelkamp & Kissmann) on plies 0-26, the terms compared.
* solve-WxH: every per-ply count (positions, terminal, X/O wins, draws,
  first player won/drawn/lost) and the value against the explicit engine's
  report in results/connect/connect-WxH-k4.json; past the explicit engine
  (6x6, 7x5): the value against the published one (John Tromp's table),
  won + drawn + lost = positions on every ply, and for 6x6 every ply's
  won / drawn / lost against Böck's published solve (his
  solution_w6_h6/results_solve_w6_h6.csv). scripts/symbolic-sample.py
  checks such a table's values against the search position by position.
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
Usage: scripts/symbolic-check.py   (from anywhere)
"""
import json
import pathlib
import sys

HERE = pathlib.Path(__file__).resolve().parent.parent / "results"

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
# 7x6 positions ply by ply (Böck's won + drawn + lost; plies 0-26 compared
# with OEIS A212693 and equal)
PLIES_7X6 = [
    1, 7, 49, 238, 1120, 4263, 16422, 54859, 184275, 558186, 1662623,
    4568683, 12236101, 30929111, 75437595, 176541259, 394591391, 858218743,
    1763883894, 3568259802, 6746155945, 12673345045, 22010823988,
    38263228189, 60830813459, 97266114959, 140728569039, 205289508055,
    268057611944, 352626845666, 410378505447, 479206477733, 488906447183,
    496636890702, 433471730336, 370947887723, 266313901222, 183615682381,
    104004465349, 55156010773, 22695896495, 7811825938, 1459332899,
]
# Connect Four values past the explicit engine (Tromp; `verify` proves them
# by search too)
CONNECT_VALUES = {(7, 5): "draw", (6, 6): "second"}
# Böck's 6x6 solve, ply by ply: (won, drawn, lost) for the player to move
BOECK_SOLVE_6X6 = [
    (0, 0, 1), (6, 0, 0), (6, 24, 6), (98, 52, 6), (300, 220, 131),
    (1324, 534, 398), (4544, 1580, 1752), (13868, 3982, 6480),
    (46002, 10280, 18640), (118724, 25104, 67214), (363196, 56710, 156360),
    (815366, 129592, 523156), (2277583, 267636, 1050857),
    (4597758, 565760, 3231266), (11699108, 1098276, 5831790),
    (21523754, 2144618, 16310672), (49751882, 3911893, 27021039),
    (83960708, 7060426, 68412756), (175768828, 12096840, 104937956),
    (272162860, 20210438, 238672448), (512669271, 32320349, 339135354),
    (725182660, 50189136, 687992224), (1219869020, 75033304, 901278168),
    (1561655780, 108518894, 1616415130), (2318803344, 150351002, 1929105096),
    (2645054112, 202034082, 3015867732), (3409198318, 259072600, 3223332998),
    (3392753538, 322390736, 4318869880), (3690830516, 384569265, 4030760404),
    (3089884946, 435398174, 4469417644), (2688933070, 471148650, 3476328802),
    (1785392828, 468490136, 3007279574), (1144004318, 450464011, 1841291613),
    (554598782, 373041874, 1167659076), (219995950, 276221222, 502035320),
    (54244612, 149951066, 197034676), (0, 49981730, 40044990),
]
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
        if path.exists():
            explicit = json.loads(path.read_text())
            problems += differences(report, explicit, PLY_KEYS)
            how = "every per-ply count and the value equal the explicit engine's"
        elif (cols, rows) in CONNECT_VALUES:
            problems += beyond_explicit(cols, rows, report)
            how = "value equals the published one; per-ply sums consistent"
            if (cols, rows) == (6, 6):
                how += "; every ply's won/drawn/lost equals Böck's"
        else:
            return [f"no explicit report {path.name} to compare with"], "unchecked"
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
    elif (cols, rows) == (7, 6):
        ours = [ply["positions"] for ply in report["per_ply"]]
        if ours != PLIES_7X6:
            problems.append("per-ply positions differ from Böck's / A212693")
        how = "count equals Böck's and Tromp's, every ply equal to Böck's (A212693)"
    else:
        how = "count equals Böck's"
    return problems, how


def beyond_explicit(cols, rows, report):
    """A solve past the explicit engine: its value, its sums, Böck's plies."""
    problems = []
    if report["value"] != CONNECT_VALUES[(cols, rows)]:
        problems.append(f"value {report['value']} != published {CONNECT_VALUES[(cols, rows)]}")
    for ply in report["per_ply"]:
        p = ply["ply"]
        if ply["first_won"] + ply["first_drawn"] + ply["first_lost"] != ply["positions"]:
            problems.append(f"ply {p}: won + drawn + lost != positions")
        if (cols, rows) == (6, 6):
            won, drawn, lost = BOECK_SOLVE_6X6[p]
            # Böck counts for the player to move; ours for the first player
            if p % 2 == 1:
                won, lost = lost, won
            ours = (ply["first_won"], ply["first_drawn"], ply["first_lost"])
            if ours != (won, drawn, lost):
                problems.append(f"ply {p}: {ours} != Böck's {(won, drawn, lost)}")
    return problems


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
