"""The Game class: moves, legality, status, planes; and the environments'
conventions checked move by move against PettingZoo's own Connect Four and
tic-tac-toe."""

from __future__ import annotations

import numpy as np
import pytest
from pettingzoo.classic import connect_four_v3, tictactoe_v3

from retrograde import Game, Searcher
from retrograde.aec import connect_four_env, mnk_env


def test_moves_and_status():
    g = Game("connect", 7, 6)
    for a in [3, 3, 2, 2, 1, 1]:
        g.play(a)
    assert g.moves == "4 4 3 3 2 2" and g.to_move == 0 and g.status == "in_progress"
    g.play(0)
    assert g.status == "won" and g.winner == 0 and g.is_over
    assert g.legal_actions() == [] and bytes(g.action_mask()) == bytes(7)
    assert sorted(g.winning_cells()) == [35, 36, 37, 38]
    g.undo()
    assert g.status == "in_progress" and g.winner is None and g.stones == 6


def test_bad_input_is_a_value_error():
    with pytest.raises(ValueError, match="unknown game"):
        Game("chess", 8, 8)
    # (issue 74, line 3) one position language to 256 cells: 9 × 8
    # Connect Four and gomoku's 15 × 15 are games like any other
    big = Game("connect", 9, 8)
    big.play(8)
    assert big.masks == (1 << 71, 0)
    gomoku = Game("mnk", 15, 15, 5)
    gomoku.play_moves("h8")
    assert gomoku.masks == (1 << 112, 0) and len(gomoku.legal_actions()) == 224
    with pytest.raises(ValueError):
        Game("connect", 17, 2)  # a side beyond 16
    with pytest.raises(ValueError):
        Game("mnk", 3, 3, 4)
    g = Game("connect", 4, 4)
    for _ in range(4):
        g.play(0)
    with pytest.raises(ValueError, match="not legal"):
        g.play(0)
    with pytest.raises(ValueError):
        g.play(-1)
    with pytest.raises(ValueError):
        g.play(4)
    with pytest.raises(ValueError, match="column 1 is full"):
        g.play_moves("1")
    with pytest.raises(ValueError):
        Game("mnk", 3, 3).undo()


def test_boards_wider_than_8_play_and_search():
    # 10 columns (column 10 a move): X holds 2-3-4 on the bottom row, O
    # cannot block both 1 and 5
    g = Game("connect", 10, 4)
    g.play_moves("2 10 3 10 4")
    assert g.stones == 5 and g.to_move == 1
    answer = Searcher("connect", 10, 4).answer(g, all_moves=False)
    assert answer["value"] == "loss" and answer["depth"] == 2


def test_moves_argument_and_notation():
    g = Game("mnk", 3, 3, moves="b2 a1")
    assert g.stones == 2 and g.to_move == 0
    assert g.notation(4) == "b2" and g.actions == [4, 0]
    assert g.diagram() == "O../.X./..."


def _random_actions(rng, mask):
    return int(rng.choice(np.flatnonzero(mask)))


@pytest.mark.parametrize(
    ("ours", "theirs"),
    [(connect_four_env, connect_four_v3.env), (mnk_env, tictactoe_v3.env)],
    ids=["connect_four_v3", "tictactoe_v3"],
)
def test_same_game_as_pettingzoo(ours, theirs):
    """Random games, an illegal move now and then: every observation, mask,
    reward, termination and agent equal to PettingZoo's at every step."""
    rng = np.random.default_rng(11)
    a, b = ours(), theirs()
    for game in range(150):
        a.reset(seed=game)
        b.reset(seed=game)
        for agent_a, agent_b in zip(a.agent_iter(), b.agent_iter(), strict=True):
            assert agent_a == agent_b
            last_a, last_b = a.last(), b.last()
            for key in ("observation", "action_mask"):
                assert np.array_equal(last_a[0][key], last_b[0][key]), (game, key)
                assert last_a[0][key].dtype == last_b[0][key].dtype
            assert last_a[1:4] == last_b[1:4]
            if last_a[2] or last_a[3]:
                action = None
            elif game % 10 == 9 and rng.random() < 0.2:
                # an occupied cell or a full column, if there is one
                illegal = np.flatnonzero(last_a[0]["action_mask"] == 0)
                action = (
                    int(illegal[0])
                    if len(illegal)
                    else _random_actions(rng, last_a[0]["action_mask"])
                )
            else:
                action = _random_actions(rng, last_a[0]["action_mask"])
            a.step(action)
            b.step(action)
        assert a.rewards == b.rewards
