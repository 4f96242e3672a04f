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
  one (gomoku.sh skips a line with a Black move below it accepted), and
  this line's own unproved checkpoint is deleted.

It goes depth first and stops at MAX_DEPTH moves after h8 (default 8),
at DEADLINE (seconds since the epoch: no run starts later), or on SIGUSR1
(once the run in progress has ended and been checked). Every decision is
printed. Two of these may run at once on disjoint lines.
"""

import json
import os
import signal
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "results", "gomoku")
SCRIPT = os.path.join(ROOT, "results", "gomoku.sh")
CHECKPOINTS = os.environ.get("CHECKPOINTS", "/var/tmp/retrograde-gomoku")
MAX_DEPTH = int(os.environ.get("MAX_DEPTH", "8"))
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


def run(path):
    if stopping or time.time() >= DEADLINE:
        raise Stop()
    print(f"gomoku-tree: run {':'.join(path)}", flush=True)
    status = subprocess.call([SCRIPT, ":".join(path)])
    if status != 0:
        print(f"gomoku-tree: gomoku.sh exited with {status}", flush=True)
        raise Stop()


def open_moves(path):
    """The moves the line's last run left open, least proof number first."""
    moves = report(path).get("moves_searched") or []
    return [m["move"] for m in sorted(moves, key=lambda m: m["proof"]) if m["proof"] != 0]


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
    if white_to_move(path):
        left = open_moves(path)
        print(f"gomoku-tree: {':'.join(path)}: {len(left)} White moves open: {' '.join(left)}",
              flush=True)
        if not all([prove(path + [move]) for move in left]):
            return False
        # run again from its checkpoint, the lines below merged (its last
        # run is in RUNS.log; gomoku.sh skips a line with a JSON)
        os.remove(os.path.join(OUT, name(path) + ".json"))
        run(path)
        if proved(path):
            return True
        print(f"gomoku-tree: {':'.join(path)}: not proved with its lines merged", flush=True)
        return False
    left = open_moves(path)
    if not left:
        print(f"gomoku-tree: {':'.join(path)}: no Black move open", flush=True)
        return False
    print(f"gomoku-tree: {':'.join(path)}: Black's {left[0]} chosen", flush=True)
    if not prove(path + [left[0]]):
        return False
    # this line's own unproved checkpoint is of no more use
    own = os.path.join(CHECKPOINTS, f"h8-{name(path)}.checkpoint")
    if os.path.exists(own):
        os.remove(own)
    return True


def main():
    signal.signal(signal.SIGUSR1, on_usr1)
    for arg in sys.argv[1:]:
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
