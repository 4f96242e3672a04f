"""The perfect opponent never loses to random play: 1,000 seeded games on
each small board, the perfect player moving first in half of them; and a
perfect agent judged by evaluate() makes no blunder."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest

import retrograde
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
    opponent = PerfectOpponent(game, time_limit=0.001)
    one = opponent.best_actions(game)
    assert len(one) == 1 and one[0] in every and opponent.single == 1
    assert opponent.best_actions(game) == one and opponent.single == 1  # kept
