#!/usr/bin/env python3
"""Prove a gomoku line by splitting it into lines proved apart.

Usage: results/gomoku-tree.py PATH [PATH ...]   (PATH as for gomoku.sh, say
       i9:i8: the moves after 1.h8, White's reply first)

Each position is given to `results/gomoku.sh PATH` for TIME_LIMIT seconds
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
  resumes it; each takes about 2 GB after 600 s).

It goes depth first and stops at MAX_DEPTH moves after h8 (default 20),
at DEADLINE (seconds since the epoch: no run starts later), or on SIGUSR1
sent to its own PID (once the run in progress has ended and been checked).
A White move the prover disproved (none of Black's candidate moves wins
below it within the horizon), a line whose pass is still open (its moves
are not known yet) or a report without its moves (an older build's)
leave the line as it is, said; a certificate the checker refused stops
the driver. The binaries are built once, at the start. Every decision
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
SCRIPT = os.path.join(ROOT, "results", "gomoku.sh")
# (gomoku.sh reads a relative one from the repository's root)
CHECKPOINTS = os.path.join(ROOT, os.environ.get("CHECKPOINTS", "/var/tmp/retrograde-gomoku"))
MAX_DEPTH = int(os.environ.get("MAX_DEPTH", "20"))
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


def accepted(path):
    r = report(path)
    return r is not None and r.get("checker") == "accepted"


def white_to_move(path):
    return len(path) % 2 == 0


def proved(path):
    """Accepted, or (Black to move) a Black move below it accepted."""
    if accepted(path):
        return True
    if white_to_move(path):
        return False
    prefix = name(path) + "-"
    for f in os.listdir(OUT):
        below = f[len(prefix) : -len(".json")]
        if f.startswith(prefix) and f.endswith(".json") and "-" not in below:
            if accepted(path + [below]):
                return True
    return False


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


def prove(path):
    """Proves the line, splitting it; True once it is proved."""
    if proved(path):
        return True
    if report(path) is None:
        run(path)
        if proved(path):
            return True
    if len(path) >= MAX_DEPTH:
        print(f"gomoku-tree: {':'.join(path)}: not proved, at MAX_DEPTH", flush=True)
        return False
    left = open_moves(path)
    if left is None:
        return False
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
        os.remove(os.path.join(OUT, name(path) + ".json"))
        run(path)
        if proved(path):
            return True
        print(f"gomoku-tree: {':'.join(path)}: not proved with its lines merged", flush=True)
        return False
    if not left:
        print(f"gomoku-tree: {':'.join(path)}: no Black move open", flush=True)
        return False
    print(f"gomoku-tree: {':'.join(path)}: Black's {left[0]} chosen", flush=True)
    # this line's own unproved checkpoint (2 GB after 600 s) is never
    # resumed nor merged: the line is proved by the one below it
    own = os.path.join(CHECKPOINTS, f"h8-{name(path)}.checkpoint")
    if os.path.exists(own):
        os.remove(own)
    return prove(path + [left[0]])


def main():
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
