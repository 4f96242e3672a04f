"""The perfect opponent never loses to random play: 1,000 seeded games on
each small board, the perfect player moving first in half of them; and a
perfect agent judged by evaluate() makes no blunder. By default it answers
in time, within a bounded memory, and a move it could not prove is still
sensible."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest

import retrograde
from conftest import NeverFinishes
from retrograde import opponents
from retrograde.opponents import MctsOpponent, PerfectOpponent


def random_agent(rng):
    return lambda observation, mask: int(rng.choice(np.flatnonzero(mask)))


@pytest.mark.parametrize(
    ("env_id", "size", "games"),
    [
        ("retrograde/MNK-v0", {}, 1000),
        ("retrograde/ConnectFour-v0", {"cols": 5, "rows": 4}, 1000),
        ("retrograde/ConnectFour-v0", {"cols": 6, "rows": 4}, 1000),
    ],
    ids=["tic-tac-toe", "connect-5x4", "connect-6x4"],
)
def test_perfect_never_loses_to_random(env_id, size, games):
    family = "mnk" if "MNK" in env_id else "connect"
    table = retrograde.solve(family, size.get("cols", 3), size.get("rows", 3))
    rng = np.random.default_rng(2026)
    agent = random_agent(rng)
    results = {1.0: 0, 0.0: 0, -1.0: 0}
    for side in (0, 1):
        env = gymnasium.make(env_id, **size, opponent="perfect", table=table, agent_player=side)
        for seed in range(games // 2):
            obs, _ = env.reset(seed=seed)
            done = False
            while not done:
                obs, reward, done, _, _ = env.step(agent(obs["observation"], obs["action_mask"]))
            results[reward] += 1
    assert results[1.0] == 0, results
    assert results[-1.0] > 0


def test_perfect_by_search_never_loses_to_random():
    """No table: the opponent proves its moves by search (5×4, 100 games)."""
    rng = np.random.default_rng(7)
    agent = random_agent(rng)
    for side in (0, 1):
        env = gymnasium.make(
            "retrograde/ConnectFour-v0",
            cols=5,
            rows=4,
            opponent="perfect",
            agent_player=side,
            time_limit=None,
        )
        for seed in range(50):
            obs, _ = env.reset(seed=seed)
            done = False
            while not done:
                obs, reward, done, _, _ = env.step(agent(obs["observation"], obs["action_mask"]))
            assert reward <= 0
        assert env.unwrapped.opponent.unproved == 0


def test_evaluate_judges_perfect_and_random_play():
    table = retrograde.solve("connect", 5, 4)
    game = retrograde.Game("connect", 5, 4)
    perfect = retrograde.evaluate(
        PerfectOpponent(game, table=table),
        family="connect",
        cols=5,
        rows=4,
        games=40,
        table=table,
        seed=3,
    )
    assert (perfect.blunders, perfect.losses, perfect.games) == (0, 0, 40)
    assert perfect.moves > 0
    rng = np.random.default_rng(1)
    rand = retrograde.evaluate(
        random_agent(rng), family="connect", cols=5, rows=4, games=40, table=table, seed=3
    )
    assert rand.blunders > 0 and 0 < rand.blunder_rate < 1
    assert sum(p.moves for p in rand.phases) == rand.moves
    assert [(p.first, p.last) for p in rand.phases] == [(0, 6), (7, 12), (13, 19)]
    assert "blunders" in str(rand)


def test_evaluate_counts_an_illegal_move_as_a_lost_game():
    result = retrograde.evaluate(
        lambda observation, mask: 0,
        family="mnk",
        cols=3,
        rows=3,
        games=4,
        seed=0,
        table=retrograde.solve("mnk", 3, 3),
    )
    assert result.illegal > 0 and result.losses >= result.illegal


def test_mcts_beats_random_play_and_is_judged():
    """MCTS (an opponent object evaluated as an agent) wins most games
    against random play on 5×4 and makes fewer blunders than random play."""
    table = retrograde.solve("connect", 5, 4)
    mcts = retrograde.evaluate(
        MctsOpponent(300), family="connect", cols=5, rows=4, games=40, table=table, seed=5
    )
    rand = retrograde.evaluate(
        random_agent(np.random.default_rng(5)),
        family="connect",
        cols=5,
        rows=4,
        games=40,
        table=table,
        seed=5,
    )
    assert mcts.wins >= 30, str(mcts)
    assert mcts.blunder_rate < rand.blunder_rate


def test_perfect_by_search_proves_one_best_move_when_all_take_too_long():
    game = retrograde.Game("connect", 6, 5, moves="3 4 3 4 4 3 5 2")
    every = retrograde.Searcher("connect", 6, 5).best_actions(game)
    opponent = PerfectOpponent(game, time_limit=0.001, prove_limit=None)
    one = opponent.best_actions(game)
    assert len(one) == 1 and one[0] in every and opponent.single == 1
    assert opponent.best_actions(game) == one and opponent.single == 1  # kept


def test_the_perfect_opponent_s_search_memory_is_bounded_by_default(monkeypatch):
    """Without it ``Searcher("connect", 7, 6)`` reserved about 1 GiB."""
    assert 64 * 2**20 <= opponents.DEFAULT_MAX_MEMORY <= 128 * 2**20
    monkeypatch.setattr(opponents, "Searcher", NeverFinishes)
    gymnasium.make("retrograde/ConnectFour-v0")
    assert NeverFinishes.made["max_memory"] == opponents.DEFAULT_MAX_MEMORY
    gymnasium.make("retrograde/ConnectFour-v0", max_memory="256MiB")
    assert NeverFinishes.made["max_memory"] == "256MiB"


def test_an_unbounded_proof_is_asked_for_not_the_default(monkeypatch):
    """By default one search, within ``time_limit``; a second search for
    one best move only with ``prove_limit`` (``None``: unbounded, which took
    78 s on the first move of 7×6 when it was the default)."""
    monkeypatch.setattr(opponents, "Searcher", NeverFinishes)
    game = retrograde.Game("connect", 7, 6, moves="4")
    rng = np.random.default_rng(0)
    asked = {}
    for prove_limit in (0.0, 0.5, None):
        opponent = PerfectOpponent(game, prove_limit=prove_limit)
        assert game.is_legal(opponent.choose(game, rng)) and not opponent.last_proved
        asked[prove_limit] = opponent.searcher.asked
    assert PerfectOpponent(game).prove_limit == 0 and PerfectOpponent(game).time_limit == 1
    assert asked == {
        0.0: [(1.0, True)],
        0.5: [(1.0, True), (0.5, False)],
        None: [(1.0, True), (None, False)],
    }


def test_an_unproved_move_takes_a_win_or_blocks_one(monkeypatch):
    """Where no search finishes, the move is still sensible: even MCTS of
    one playout (a random move) is overruled to win at once or to block."""
    monkeypatch.setattr(opponents, "Searcher", NeverFinishes)
    block = retrograde.Game("connect", 7, 6, moves="1 2 1 2 1")  # X threatens column 1
    win = retrograde.Game("connect", 7, 6, moves="1 2 1 2 1 3")  # X wins in column 1
    opponent = PerfectOpponent(block, playouts=1)
    for seed in range(20):
        rng = np.random.default_rng(seed)
        assert opponent.choose(block, rng) == 0 and not opponent.last_proved
        assert opponent.choose(win, rng) == 0
    assert opponent.unproved == 40
    assert opponents.safe_actions(retrograde.Game("connect", 7, 6)) == list(range(7))


def test_the_report_says_one_blunder_not_one_blunders():
    """(issue 73, line 16) "1 blunders" was printed."""
    from retrograde.evaluate import Evaluation, Phase

    e = Evaluation(games=1, wins=1, phases=[Phase(0, 9, moves=1, blunders=1)])
    text = str(e)
    assert "1 game:" in text and "1 move, 1 blunder (" in text, text
    assert "blunders" not in text and "1 moves" not in text, text
