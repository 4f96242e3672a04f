#!/usr/bin/env python3
"""Prove a gomoku line by splitting it into lines proved apart.

Usage: scripts/gomoku-tree.py PATH [PATH ...]   (PATH as for gomoku.sh, say
       i9:i8: the moves after 1.h8, White's reply first)
       scripts/gomoku-tree.py --frontier PATH [PATH ...]   (runs nothing:
       the lines below PATH still open, from the JSONs)

Each position is given to `scripts/gomoku.sh PATH` for TIME_LIMIT seconds
(and its other settings: CHECKPOINTS, ZONES, MAX_STONES, MEMORY, ... are
passed through). A position it does not prove is split, as a proof-number
search splits a node, but into runs of their own, each with the whole
table (df-pn keeps working on the reply hardest to prove and leaves the
easy ones open; apart, most of them take a minute):

* White to move (an even number of moves after h8): every White move the
  run left open (its JSON's `moves_searched`) is proved apart, least
  proof number first; once all are, the position is run again, resumed
  from its checkpoint, and gomoku.sh merges their proofs into it and has
  the checker replay the certificate put together.
* Black to move: its open move of least proof number is chosen, as by
  hand, and the position after it proved apart; accepted, it proves this
  one (gomoku.sh skips a line with a Black move below it accepted). This
  line's own unproved checkpoint is deleted as it is split (no run
  resumes it; each takes about 2 GB after 600 s). With BLACK_TRIES=N
  (default 1), its N open moves of least proof number, and any Black
  move run below it before, are each run first, and the one whose run
  left the fewest White moves open (and not yet proved apart) is
  followed: a proof number after a short run is a poor guide (a move
  chosen so was nearly disproved by a run 8 times longer), while the
  White moves left open are the runs the split will cost. One proved
  ends the tries; the others' own unproved checkpoints are deleted.
* A White-to-move line where Black's last move made a four only one
  White move blocks is not run first (its run would search that move
  alone for the whole TIME_LIMIT): the line below the block is proved
  first, then this one run with it merged.

* Twins: before a line is run, the accepted lines whose checkpoints are
  kept are searched for one that reaches its position turned by one of
  the board's 8 symmetries about h8, or by another move order (h8 i9 i8
  h6 is h8 j8 h9 g9 turned a quarter). Found, its proof is adopted: its
  checkpoint hard-linked under this line's name (the prover's keys are
  canonical, so it proves this position as it is), its JSON copied with
  `twin_of`, a line in RUNS.log; the run above merges it as any line
  below. A Black move chosen by hand proves the position before it too,
  through the move's image, adopted only among the prover's own
  candidates here. Only a checkpoint written by its proof's run, with
  the settings this driver's runs have, is adopted; an adopted line
  cannot be resumed (its checkpoint is the twin's position's).

It goes depth first and stops at MAX_DEPTH moves after h8 (default 20;
MAX_DEPTH=3 with a shorter TIME_LIMIT sweeps a sub-class's White fourth
moves apart, leaving the hard ones for a deeper driver),
at DEADLINE (seconds since the epoch: no run starts later), or on SIGUSR1
sent to its own PID (once the run in progress has ended and been checked).
A White move the prover disproved (none of Black's candidate moves wins
below it within the horizon), a line whose pass is still open (its moves
are not known yet) or a report without its moves (an older build's)
leave the line as it is, said; a certificate the checker refused stops
the driver. The binary is built once, at the start. Every decision
is printed. Two of these may run at once on disjoint lines.
"""

import json
import os
import signal
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "results", "gomoku")
SCRIPT = os.path.join(ROOT, "scripts", "gomoku.sh")
# (gomoku.sh reads a relative one from the repository's root)
CHECKPOINTS = os.path.join(ROOT, os.environ.get("CHECKPOINTS", "/var/tmp/retrograde-gomoku"))
MAX_DEPTH = int(os.environ.get("MAX_DEPTH", "20"))
BLACK_TRIES = max(1, int(os.environ.get("BLACK_TRIES", "1")))
DEADLINE = float(os.environ.get("DEADLINE", "inf"))
stopping = False


class Stop(Exception):
    """No new run may start: the deadline, SIGUSR1 or a failed run."""


def on_usr1(_signum, _frame):
    global stopping
    stopping = True
    print("gomoku-tree: SIGUSR1: stopping after the run in progress", flush=True)


def name(path):
    return "-".join(path)


def report(path):
    """The line's JSON written by gomoku.sh, or None before its first run."""
    try:
        with open(os.path.join(OUT, name(path) + ".json")) as f:
            return json.load(f)
    except FileNotFoundError:
        return None


def white_to_move(path):
    return len(path) % 2 == 0


def proved(path):
    """gomoku.sh's own rule (the one it skips a line by): accepted, or
    (Black to move) a Black move below it accepted."""
    return subprocess.call([SCRIPT, "--proved", ":".join(path)]) == 0


def cell(move):
    """A cell's (column, row) from h8, as a1 = (-7, -7)."""
    return ord(move[0]) - ord("h"), int(move[1:]) - 8


def name_of(xy):
    return chr(ord("h") + xy[0]) + str(xy[1] + 8)


# the board's 8 symmetries about h8, on a cell's (column, row) from h8
SYMMETRIES = [
    lambda x, y: (x, y),
    lambda x, y: (-y, x),
    lambda x, y: (-x, -y),
    lambda x, y: (y, -x),
    lambda x, y: (-x, y),
    lambda x, y: (x, -y),
    lambda x, y: (y, x),
    lambda x, y: (-y, -x),
]


def stones(path):
    """The position a path reaches: (Black's cells, White's cells), h8 Black's."""
    black = {cell("h8")} | {cell(m) for m in path[1::2]}
    return frozenset(black), frozenset(cell(m) for m in path[0::2])


def image(symmetry, position):
    return tuple(frozenset(symmetry(*xy) for xy in side) for side in position)


def proofs_kept():
    """Every accepted line whose checkpoint (its proof alone) is kept,
    written by its proof's run and with settings a run here can merge."""
    for f in sorted(os.listdir(OUT)):
        if f.endswith(".json") and f.count("-") >= 2:
            path = f[: -len(".json")].split("-")
            r = report(path)
            if (
                r is not None  # (gone meanwhile: a driver runs a line again)
                and r.get("checker") == "accepted"
                and "twin_of" not in r  # (its proof is the twin's own)
                and "the checkpoint could not be saved" not in json.dumps(r)
                and os.path.exists(checkpoint(path))
                and mergeable(checkpoint(path))
            ):
                yield path


def mergeable(file):
    """The checkpoint's header settings and horizon are ones a run with
    this driver's ZONES, COVERS and MAX_STONES merges (it refuses others)."""
    with open(file, "rb") as f:
        head = f.read(4096).decode("ascii", "replace").split("\n")
    settings = next((line for line in head if line.startswith("settings ")), "")
    horizon = next((line.split()[1] for line in head if line.startswith("horizon ")), None)
    zones = os.environ.get("ZONES", "off")
    if f"zone_moves: {'None' if zones == 'off' else f'Some({zones})'} }}" not in settings:
        return False
    if f"max_covers: {os.environ.get('COVERS', '3')}," not in settings:
        return False
    horizons = [int(n) for n in os.environ.get("MAX_STONES", "").split(",") if n]
    if not horizons:
        return True
    return horizon is not None and horizon.isdigit() and int(horizon) <= max(horizons)


def checkpoint(path):
    return os.path.join(CHECKPOINTS, f"h8-{name(path)}.checkpoint")


def twin(path):
    """A line proved elsewhere that reaches this line's position turned by a
    symmetry or by another move order (keys are canonical, so its checkpoint
    proves this position too): (the line with the proof, the line here that
    takes it), or None. A line that ends in a Black move chosen by hand
    proves the position before it as well, through the move's image, which
    must be among the prover's own candidates here (its moves_searched)."""
    position = stones(path)
    here = report(path)
    for other in proofs_kept():
        if other[: len(path)] == path:
            continue  # a line below this one: gomoku.sh merges it itself
        proves = stones(other)
        before = stones(other[:-1]) if len(other) % 2 == 0 else None
        for symmetry in SYMMETRIES:
            if image(symmetry, proves) == position:
                return other, path
            if before and image(symmetry, before) == position:
                move = name_of(symmetry(*cell(other[-1])))
                # (the prover's candidates are worked out on the canonical
                # position, so the twin's own are as good as this line's)
                there = report(other[:-1])
                if (
                    here
                    and move in searched(here)
                    or not here
                    and there
                    and other[-1] in searched(there)
                ):
                    return other, path + [move]
    return None


def searched(r):
    return [m["move"] for m in r.get("moves_searched") or []]


def adopt(other, path):
    """Makes a twin's proof this line's: its checkpoint linked (a hard link:
    gomoku.sh deletes either name once it is merged, and the other stays)
    under this line's name, its report copied with twin_of, and a line in
    RUNS.log. The run above merges it as one of its own lines'."""
    mine = checkpoint(path)
    link = mine + ".link"
    try:
        os.link(checkpoint(other), link)
    except FileNotFoundError:
        return False  # merged above and deleted by the other driver meanwhile
    os.replace(link, mine)  # (this line's own checkpoint, unproved, if any)
    # the twin's counts and moves (in its orientation) stay in its own JSON
    r = {key: report(other).get(key) for key in ("game", "cols", "rows", "k", "proved", "value")}
    r.update(method=report(other).get("method"), checker="accepted", twin_of=":".join(other))
    r.update(after="h8," + ",".join(path), path=path, third_move=path[1], fourth_move=path[2])
    r["class"] = "h8," + path[0]
    tmp = os.path.join(OUT, name(path) + ".json.tmp")
    with open(tmp, "w") as f:
        json.dump(r, f)
    os.replace(tmp, os.path.join(OUT, name(path) + ".json"))
    line = f"h8 {' '.join(path)}: X wins as h8 {' '.join(other)}, the same position"
    with open(os.path.join(OUT, "RUNS.log"), "a") as f:
        f.write(
            f"{time.strftime('%Y-%m-%d', time.gmtime())} {line} (its proof's checkpoint linked)\n"
        )
    print(
        f"gomoku-tree: {':'.join(path)}: proved as {':'.join(other)}, the same position", flush=True
    )
    return True


def drop_own_checkpoint(path):
    """Deletes a line's own unproved checkpoint (2 GB after 600 s): a
    Black-to-move line's once a Black move below it is chosen (it is never
    resumed nor merged, as the line is proved by the one below it), and a
    Black move's tried and not chosen (run again, it starts afresh)."""
    own = checkpoint(path)
    if os.path.exists(own):
        os.remove(own)


def may_run():
    if stopping or time.time() >= DEADLINE:
        raise Stop()


def run(path):
    may_run()
    print(f"gomoku-tree: run {':'.join(path)}", flush=True)
    status = subprocess.call([SCRIPT, ":".join(path)])
    if status != 0:
        print(f"gomoku-tree: gomoku.sh exited with {status}", flush=True)
        raise Stop()
    if report(path).get("checker") == "refused":
        print(f"gomoku-tree: {':'.join(path)}: the checker REFUSED its certificate", flush=True)
        raise Stop()


def open_moves(path):
    """The moves the line's last run left open, least proof number first
    (a move whose numbers are not held last), or None where the line cannot
    be split: its report names no moves, or (White to move) its pass or one
    of its moves is not settled in a way a split can mend."""
    line = ":".join(path)
    moves = report(path).get("moves_searched")
    if moves is None:
        print(f"gomoku-tree: {line}: its report names no moves searched", flush=True)
        return None
    if any(m["disproof"] == 0 for m in moves) and white_to_move(path):
        print(f"gomoku-tree: {line}: a White move disproved", flush=True)
        return None
    left = [m for m in moves if m["proof"] != 0 and m["disproof"] != 0]
    if any(m["move"] == "pass" for m in left):
        print(f"gomoku-tree: {line}: its pass is open (run it longer)", flush=True)
        return None
    left.sort(key=lambda m: (m["proof"] is None, m["proof"] or 0))
    return [m["move"] for m in left]


def lines_below(path):
    """The moves one below `path` whose lines have a JSON of their own."""
    prefix = name(path) + "-"
    return sorted(
        f[len(prefix) : -len(".json")]
        for f in os.listdir(OUT)
        if f.startswith(prefix) and f.endswith(".json") and "-" not in f[len(prefix) :]
    )


def forced(path):
    """White's one move at a White-to-move line where Black's last move
    made a four that only it blocks (White with no four of its own, Black
    with no five nor a second four), else None: the line's run would
    search that move alone, so the driver proves the line below it first
    and runs this one merged (its first run skipped)."""
    if not white_to_move(path):
        return None
    black, white = stones(path)
    blocks = set()
    for dx, dy in ((1, 0), (0, 1), (1, 1), (1, -1)):
        for x in range(-7, 8):
            for y in range(-7, 8):
                window = [(x + i * dx, y + i * dy) for i in range(5)]
                if any(abs(wx) > 7 or abs(wy) > 7 for wx, wy in window):
                    continue
                b = sum(c in black for c in window)
                w = sum(c in white for c in window)
                if b == 5 or w == 4 and b == 0:
                    return None
                if b == 4 and w == 0:
                    blocks |= {c for c in window if c not in black}
    return name_of(blocks.pop()) if len(blocks) == 1 else None


def moves_open(path):
    """open_moves(path), but at a White-to-move line not run yet whose move
    is forced, that move."""
    block = forced(path) if report(path) is None else None
    return [block] if block else open_moves(path)


def settle(path):
    """Proves the line without a split: already proved, by a twin, or by
    its first run (not run where White's move is forced and the line is
    split below MAX_DEPTH); True once it is proved."""
    if proved(path):
        return True
    found = twin(path)
    if found and adopt(*found):
        if found[1] != path:
            drop_own_checkpoint(path)  # proved by the move below, as at a split
        return True
    if report(path) is None and not (forced(path) and len(path) < MAX_DEPTH):
        run(path)  # (a forced line at MAX_DEPTH too: it is not split)
        return proved(path)
    return False


def choose(path, left):
    """Black's move to follow below `path` (its open moves `left`, least
    proof number first): of the BLACK_TRIES first and the moves run below
    it before, the one whose line left the fewest White moves open and
    not proved apart, each run first if it was not; a line that cannot be
    split (a White move disproved, its pass open) counts last. Ties go to
    a line with lines of its own run below it (the one an earlier driver
    followed, so that a driver run again keeps to it), then to the least
    sum of the open moves' proof numbers in its run (a forced move's line,
    not run, after the lines run), then to the least proof number here.
    A tried line proved is chosen at once. The others' own checkpoints
    are deleted: one chosen later proves afresh what its own run had
    proved."""
    line = ":".join(path)
    order = {m: i for i, m in enumerate(left)}
    run_before = sorted(lines_below(path), key=lambda m: order.get(m, len(left)))
    tries = left[:BLACK_TRIES] + [m for m in run_before if m not in left[:BLACK_TRIES]]
    if len(tries) == 1:
        print(f"gomoku-tree: {line}: Black's {tries[0]} chosen", flush=True)
        return tries[0]
    print(f"gomoku-tree: {line}: Black's {' '.join(tries)} tried", flush=True)
    still_open = {}
    for move in tries:
        below = path + [move]
        if settle(below):
            print(f"gomoku-tree: {line}: Black's {move} chosen, proved", flush=True)
            return move
        moves = moves_open(below)
        still_open[move] = None if moves is None else [m for m in moves if not proved(below + [m])]

    def cost(move):
        """The open moves' proof numbers summed (None before its run)."""
        r = report(path + [move])
        if r is None:
            return None
        numbers = {m["move"]: m["proof"] or 0 for m in r.get("moves_searched") or []}
        return sum(numbers.get(m, 0) for m in still_open[move] or [])

    costs = {m: cost(m) for m in tries}

    def rank(move):
        n, c = still_open[move], costs[move]
        return (n is None, len(n or []), not lines_below(path + [move]), c is None, c or 0)

    chosen = min(tries, key=rank)
    told = ", ".join(
        f"{m}: {'cannot be split' if n is None else f'{len(n)} (proof {costs[m] or 0})'}"
        for m, n in still_open.items()
    )
    print(f"gomoku-tree: {line}: Black's {chosen} chosen (White moves open: {told})", flush=True)
    for move in tries:
        if move != chosen:
            drop_own_checkpoint(path + [move])
    return chosen


def prove(path):
    """Proves the line, splitting it; True once it is proved."""
    if settle(path):
        return True
    if len(path) >= MAX_DEPTH:
        print(f"gomoku-tree: {':'.join(path)}: not proved, at MAX_DEPTH", flush=True)
        if not white_to_move(path) and open_moves(path):
            # (a later driver splits it from its JSON and deletes it then:
            # a sweep with a low MAX_DEPTH would fill the disk with them)
            drop_own_checkpoint(path)
        return False
    left = moves_open(path)
    if left is None:
        return False
    if report(path) is None:
        print(
            f"gomoku-tree: {':'.join(path)}: White's {left[0]} forced (a four): "
            "the line below first, this one run merged",
            flush=True,
        )
    if white_to_move(path):
        print(
            f"gomoku-tree: {':'.join(path)}: {len(left)} White moves open: {' '.join(left)}",
            flush=True,
        )
        # every one, also past one not proved: each proof is kept for later
        if not all([prove(path + [move]) for move in left]):
            return False
        # run again from its checkpoint, the lines below merged (its last
        # run is in RUNS.log; gomoku.sh skips a line with a JSON)
        may_run()
        if report(path) is not None:  # (none where White's move was forced)
            os.remove(os.path.join(OUT, name(path) + ".json"))
        run(path)
        if proved(path):
            return True
        print(f"gomoku-tree: {':'.join(path)}: not proved with its lines merged", flush=True)
        return False
    if not left:
        print(f"gomoku-tree: {':'.join(path)}: no Black move open", flush=True)
        return False
    drop_own_checkpoint(path)
    return prove(path + [choose(path, left)])


def frontier(path):
    """The open lines below `path` as the JSONs leave them, one per line
    printed: every open White move below a White-to-move line, every Black
    move run below a Black-to-move line (the driver's choice, and any given
    by hand; of these alternatives, the one with the fewest open lines is
    counted). Below a White-to-move line whose report names no moves (an
    older build's: the class runs), only the lines run apart are known, so
    only they are shown (said). A line no further split shows why it stops
    there."""
    line = ":".join(path)
    if proved(path):
        return 0
    r = report(path)
    if r is None:
        print(f"{line}: not run")
        return 1
    below = lines_below(path)
    if not white_to_move(path) and below:
        if len(below) > 1:
            print(f"{line}: Black's {' and '.join(below)} run, alternatives (the fewest counted)")
        return min(frontier(path + [m]) for m in below)
    left = open_moves(path)
    if white_to_move(path) and left:
        return sum(frontier(path + [m]) for m in left)
    if white_to_move(path) and left is None and below:
        print(f"{line}: (only the lines run below it; others may be open)")
        return sum(frontier(path + [m]) for m in below)
    side = "White" if white_to_move(path) else "Black"
    if left is None:
        print(f"{line}: {side} to move, cannot be split (above)")
    else:
        moves = r["moves_searched"]
        # (none open: at White's turn every move proved, the merge run not
        # yet; at Black's every move disproved)
        least = f", least proof number first: {left[0]}" if left else ""
        if not left and white_to_move(path):
            least = ", to be run merged"
        print(f"{line}: {side} to move, {len(left)} of {len(moves)} moves open{least}")
    return 1


def main():
    if sys.argv[1:2] == ["--frontier"]:
        count = sum(frontier(arg.lower().split(":")) for arg in sys.argv[2:])
        print(f"gomoku-tree: {count} open lines")
        return 0
    signal.signal(signal.SIGUSR1, on_usr1)
    # built once: a source edited meanwhile changes nothing
    bin_dir = tempfile.mkdtemp(prefix="gomoku-tree-")
    if subprocess.call([SCRIPT, "--build-into", bin_dir]) != 0:
        return 1
    os.environ["BIN"] = bin_dir
    try:
        return prove_all(sys.argv[1:])
    finally:
        for f in os.listdir(bin_dir):
            os.remove(os.path.join(bin_dir, f))
        os.rmdir(bin_dir)


def prove_all(args):
    for arg in args:
        path = arg.lower().split(":")
        try:
            result = prove(path)
        except Stop:
            print("gomoku-tree: stopped", flush=True)
            return 1
        print(f"gomoku-tree: {arg}: {'proved' if result else 'not proved'}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
