#!/usr/bin/env python3
"""Seeded random 7x6 Connect Four games, for samples of positions by ply
(issue 87's book checks: results/serve/BOOK.md, results/serve/pons-check/).

    scripts/random-connect-games.py SEED PLIES COUNT uniform|centre

prints COUNT move lists of PLIES moves (columns from 1), each a game in
play after its last move (a game that is won earlier is drawn again);
`centre` weighs columns 4, 3, 2, 1 from the middle out. Standard library
only.
"""
import random, sys
def won(b, p, c, r):
    # b: dict (c,r)->player ; r from bottom
    for dc, dr in ((1,0),(0,1),(1,1),(1,-1)):
        n = 1
        for s in (1,-1):
            cc, rr = c+dc*s, r+dr*s
            while b.get((cc,rr)) == p:
                n += 1; cc += dc*s; rr += dr*s
        if n >= 4: return True
    return False
def game(rng, plies, centre):
    while True:
        b = {}; h = [0]*7; moves = []
        ok = True
        for i in range(plies):
            cols = [c for c in range(7) if h[c] < 6]
            w = [ (4 - abs(c-3)) if centre else 1 for c in cols]
            c = rng.choices(cols, w)[0]
            p = i % 2
            b[(c,h[c])] = p
            if won(b, p, c, h[c]): ok = False; break
            h[c] += 1; moves.append(c+1)
        if ok: return " ".join(map(str, moves))
seed, plies, n, centre = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4] == "centre"
rng = random.Random(seed)
for _ in range(n): print(game(rng, plies, centre))
