#!/usr/bin/env python3
"""How long `retrograde serve` takes to answer 7x6 Connect Four positions
with every move's value (the page's request), over a seeded sample of
real-looking games: the benchmark of issue 87's target (p99 within 1 s at
the server's defaults).

Each game starts from the empty board; at each position the script asks
`/api/v1/analyze` (every move's value, the server's default time limit),
times the answer, and then plays as a person might: one of the best moves
the answer names with probability 0.7, else a legal move chosen with a
weight toward the centre (4, 3, 2, 1 from the middle column out). Until
the game ends. Standard library only.

    scripts/latency-7x6.py [--games 40] [--seed 87] [--binary target/release/retrograde]
        [--out results/serve/latency-7x6.json] [-- serve options ...]

It starts the server itself (on a free loopback port, 2 threads, the
server's defaults otherwise) and prints a summary; --out keeps every
timing as JSON.
"""

import argparse
import json
import random
import subprocess
import sys
import time
import urllib.request

COLS, ROWS = 7, 6


def start_server(binary, extra):
    server = subprocess.Popen(
        [binary, "serve", "--addr", "127.0.0.1:0", "--threads", "2", "-q", *extra],
        stdout=subprocess.PIPE,
        text=True,
    )
    line = server.stdout.readline()
    if not line.startswith("listening on "):
        server.kill()
        sys.exit(f"the server did not start: {line!r}")
    return server, line.split()[-1].strip()


def analyze(base, moves):
    url = f"{base}/api/v1/analyze?game=connect&cols={COLS}&rows={ROWS}&moves={'+'.join(moves)}"
    started = time.perf_counter()
    with urllib.request.urlopen(url, timeout=600) as response:
        answer = json.load(response)
    return answer, time.perf_counter() - started


def next_move(rng, answer, heights):
    legal = [str(c + 1) for c in range(COLS) if heights[c] < ROWS]
    best = [m["move"] for m in answer.get("moves", []) if m.get("best")]
    if best and rng.random() < 0.7:
        return rng.choice(best)
    weights = [4 - abs(int(m) - 4) for m in legal]
    return rng.choices(legal, weights)[0]


def play(base, rng):
    moves, heights, timings = [], [0] * COLS, []
    while True:
        answer, seconds = analyze(base, moves)
        timings.append(
            {
                "moves": " ".join(moves),
                "stones": len(moves),
                "seconds": seconds,
                "reached": answer.get("reached", True),
            }
        )
        if answer.get("status", "in_progress") != "in_progress" or len(moves) == COLS * ROWS:
            return timings
        move = next_move(rng, answer, heights)
        heights[int(move) - 1] += 1
        moves.append(move)


def percentile(sorted_values, p):
    return sorted_values[min(len(sorted_values) - 1, int(p * len(sorted_values)))]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--seed", type=int, default=87)
    parser.add_argument("--binary", default="target/release/retrograde")
    parser.add_argument("--out")
    parser.add_argument("serve", nargs="*", help="options passed to `retrograde serve`")
    args = parser.parse_args()
    server, base = start_server(args.binary, args.serve)
    try:
        rng = random.Random(args.seed)
        timings = []
        for _ in range(args.games):
            timings += play(base, rng)
    finally:
        server.terminate()
        server.wait()
    seconds = sorted(t["seconds"] for t in timings)
    over = [t for t in timings if t["seconds"] > 1.0]
    unreached = [t for t in timings if not t["reached"]]
    summary = {
        "games": args.games,
        "seed": args.seed,
        "positions": len(timings),
        "p50": percentile(seconds, 0.50),
        "p90": percentile(seconds, 0.90),
        "p99": percentile(seconds, 0.99),
        "max": seconds[-1],
        "over_1s": len(over),
        "not_reached": len(unreached),
        "over_1s_by_stones": {
            str(s): sum(1 for t in over if t["stones"] == s)
            for s in sorted({t["stones"] for t in over})
        },
        "serve_options": args.serve,
    }
    print(json.dumps(summary, indent=1))
    if args.out:
        with open(args.out, "w") as f:
            json.dump({"summary": summary, "timings": timings}, f, indent=0)
            f.write("\n")


if __name__ == "__main__":
    main()
