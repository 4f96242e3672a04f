"""Games written in Python, solved by the generic engine
(``retrograde.solve_game``): three LeetCode game puzzles in a few lines
each, their values against brute force written here, and the answers'
shape."""

import functools
import random

import pytest

import retrograde


class StoneGameIV:
    """LeetCode 1510: take a square number of stones; who cannot, loses."""

    def __init__(self, stones):
        self.stones = stones

    def start(self):
        return self.stones

    def moves(self, n):
        return [n - k * k for k in range(1, int(n**0.5) + 1)]

    def outcome(self, n):
        return None  # no moves: lost for the player to move


class FlipGameII:
    """LeetCode 294: flip "++" to "--"; who cannot, loses."""

    def __init__(self, row):
        self.row = row

    def start(self):
        return self.row

    def moves(self, s):
        return [s[:i] + "--" + s[i + 2 :] for i in range(len(s) - 1) if s[i : i + 2] == "++"]

    def outcome(self, s):
        return None

    def key(self, s):
        return min(s, s[::-1])  # a row and its mirror image are one position


class CanIWin:
    """LeetCode 464: pick unused 1..max; who brings the total to the goal wins."""

    def __init__(self, largest, goal):
        self.largest, self.goal = largest, goal

    def start(self):
        return 0  # the set of used numbers, as bits

    def moves(self, used):
        return [used | 1 << i for i in range(self.largest) if not used >> i & 1]

    def outcome(self, used):
        total = sum(i + 1 for i in range(self.largest) if used >> i & 1)
        return "loss" if total >= self.goal else None


@functools.cache
def brute_stones(n):
    return any(not brute_stones(n - k * k) for k in range(1, int(n**0.5) + 1))


def brute_flip(s):
    @functools.cache
    def wins(s):
        return any(
            not wins(s[:i] + "--" + s[i + 2 :]) for i in range(len(s) - 1) if s[i : i + 2] == "++"
        )

    return wins(s)


def brute_can_i_win(largest, goal):
    @functools.cache
    def wins(used, total):
        for i in range(largest):
            if not used >> i & 1 and (
                total + i + 1 >= goal or not wins(used | 1 << i, total + i + 1)
            ):
                return True
        return False

    return wins(0, 0)


def test_stone_game_iv_equals_brute_force():
    table = retrograde.solve_game(StoneGameIV(300))
    assert table.positions == 301
    for n in range(301):
        value, depth = table.value(n)
        assert (value == "win") == brute_stones(n), n
    assert table.value(0) == ("loss", 0)
    assert table.name == "StoneGameIV"


def test_flip_game_ii_equals_brute_force_with_mirror_images_folded():
    rng = random.Random(294)
    for _ in range(60):
        row = "".join(rng.choice("+++-") for _ in range(rng.randrange(1, 14)))
        table = retrograde.solve_game(FlipGameII(row))
        value, _ = table.value(row)
        assert (value == "win") == brute_flip(row), row
        # every reached position, each of a mirror pair alike
        for child in table.answer(row)["moves"]:
            assert (table.value(child["position"])[0] == "win") == brute_flip(child["position"])
            assert table.value(child["position"][::-1]) == table.value(child["position"])


class FlipGameIIMirrored:
    """Flip Game II with the mirror given as a symmetry (no key: the row is
    its own key), and a picture."""

    def __init__(self, row):
        self.rules = FlipGameII(row)

    def start(self):
        return self.rules.start()

    def moves(self, s):
        return self.rules.moves(s)

    def outcome(self, s):
        return self.rules.outcome(s)

    def symmetries(self, s):
        return [s[::-1]]

    def render(self, s):
        return f"row {s}"


def test_a_symmetry_folds_mirror_images_and_answers_give_the_position_s_own_moves():
    rng = random.Random(2940)
    for _ in range(40):
        row = "".join(rng.choice("+++-") for _ in range(rng.randrange(2, 13)))
        folded = retrograde.solve_game(FlipGameIIMirrored(row))
        plain = retrograde.solve_game(FlipGameII(row))
        assert folded.positions == plain.positions, row
        for position in (row, row[::-1]):
            answer = folded.answer(position)
            assert (answer["value"] == "win") == brute_flip(position), position
            assert answer["picture"] == f"row {position}"
            # the moves are this position's own, in its own order
            own = FlipGameII(position).moves(position)
            assert [m["position"] for m in answer["moves"]] == own, position
            for m in answer["moves"]:
                assert (m["value"] == "win") != brute_flip(m["position"]), m
            best = folded.best_move(position)
            assert (best is None) == (own == [])
            if brute_flip(position):  # a winner's best move leaves a lost row
                assert best in own and not brute_flip(best)


def test_can_i_win_equals_brute_force():
    rng = random.Random(464)
    for _ in range(40):
        largest = rng.randrange(1, 11)
        goal = rng.randrange(1, largest * (largest + 1) // 2 + 1)
        table = retrograde.solve_game(CanIWin(largest, goal))
        assert (table.value(0)[0] == "win") == brute_can_i_win(largest, goal), (largest, goal)


def test_answers_name_every_move_and_the_best_keeps_the_value():
    table = retrograde.solve_game(StoneGameIV(8))
    answer = table.answer(8)
    assert [m["position"] for m in answer["moves"]] == [7, 4]
    assert answer["value"] == "win"  # 7 is lost for its mover (LeetCode: n = 7 is false)
    best = [m["position"] for m in answer["moves"] if m["best"]]
    assert best == [7] and table.best_move(8) == 7
    assert answer["depth"] == next(m["depth"] for m in answer["moves"] if m["best"])
    assert table.best_move(0) is None
    assert sum(table.counts().values()) == table.positions == sum(p for p, _ in table.plies())


def test_bad_rules_and_unknown_positions_are_errors_not_crashes():
    class Bad(StoneGameIV):
        def outcome(self, n):
            return "maybe"

    with pytest.raises(ValueError, match="outcome"):
        retrograde.solve_game(Bad(3))
    table = retrograde.solve_game(StoneGameIV(5))
    with pytest.raises(KeyError):
        table.value(6)


def test_a_saved_table_is_read_back_certified_and_an_edited_one_refused(tmp_path):
    game = CanIWin(8, 20)
    table = retrograde.solve_game(game)
    path = tmp_path / "can-i-win.rgt"
    assert table.save(path) == path.stat().st_size
    loaded = retrograde.load_game(game, path)
    assert "load" in loaded.seconds()
    assert (loaded.positions, loaded.counts(), loaded.plies()) == (
        table.positions,
        table.counts(),
        table.plies(),
    )
    compared = 0
    for used in random.Random(464).sample(range(1 << 8), 80):
        try:
            value = table.value(used)
        except KeyError:  # past the goal on the way: never reached
            continue
        assert loaded.value(used) == value
        compared += 1
    assert compared >= 20
    assert loaded.best_move(0) == table.best_move(0)
    # the same positions under other rules: the values no longer follow
    with pytest.raises(retrograde.TableFileError):
        retrograde.load_game(CanIWin(8, 21), path)
    # a byte changed: refused
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 1
    damaged = tmp_path / "damaged.rgt"
    damaged.write_bytes(bytes(data))
    with pytest.raises(retrograde.TableFileError):
        retrograde.load_game(game, damaged)
    # a file that is not a table is never replaced
    notes = tmp_path / "notes.txt"
    notes.write_text("mine")
    with pytest.raises(ValueError, match="a table replaces only a table"):
        table.save(notes)
    assert notes.read_text() == "mine"
    # nor does retrograde's own table reader take it
    with pytest.raises(retrograde.TableFileError, match="a game of your own"):
        retrograde.open_table(path)


def test_a_table_of_one_s_own_opens_without_its_rules(tmp_path):
    game = CanIWin(8, 20)
    table = retrograde.solve_game(game)
    path = tmp_path / "can-i-win.rgt"
    table.save(path)
    own = retrograde.open_own_table(path)
    assert (own.name, own.positions, len(own), own.by_rank) == (
        "CanIWin",
        table.positions,
        table.positions,
        False,
    )
    assert (own.counts(), own.plies()) == (table.counts(), table.plies())
    # a Python game's keys are the numbers of its walk: the start is 0
    assert own.value(0) == table.value(0) and 0 in own
    with pytest.raises(KeyError):
        own.value(table.positions)
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 1
    path.write_bytes(bytes(data))
    with pytest.raises(retrograde.TableFileError, match="checksum"):
        retrograde.open_own_table(path)


def test_an_environment_of_a_solved_game_of_one_s_own():
    from retrograde.own_env import OwnGameEnv

    # Stone Game IV from 8: won for the first player; the perfect opponent
    # never loses a won position and always wins a position it is handed.
    table = retrograde.solve_game(StoneGameIV(8))
    assert table.max_moves == 2
    env = OwnGameEnv(StoneGameIV(8), table, opponent="perfect")
    obs, info = env.reset(seed=0)
    assert obs == 8 and info["action_mask"].tolist() == [1, 1]
    obs, reward, done, _, info = env.step(1)  # take 4, leaving 4: won for the opponent
    assert obs == 0 and done and reward == -1.0  # it takes 4 and wins
    env.reset(seed=0)
    obs, reward, done, _, _ = env.step(0)  # take 1, leaving 7: lost for the opponent
    rewards = [reward]
    while not done:
        best = table.answer(obs)["moves"]
        action = next(i for i, m in enumerate(best) if m["best"])
        obs, reward, done, _, _ = env.step(action)
        rewards.append(reward)
    assert rewards[-1] == 1.0 and sum(rewards) == 1.0
    # an illegal move ends the episode
    env.reset(seed=0)
    _, reward, done, _, info = env.step(5)
    assert done and reward == -1.0 and info["illegal"]
    # a random agent, second to move against the perfect opponent from a
    # start won for the first player (8), never wins
    env = OwnGameEnv(StoneGameIV(8), opponent="perfect", agent_first=False)
    rng = random.Random(1)
    for seed in range(20):
        obs, info = env.reset(seed=seed)
        done = False
        while not done:
            legal = [i for i, ok in enumerate(info["action_mask"]) if ok]
            obs, reward, done, _, info = env.step(rng.choice(legal))
        assert reward == -1.0
    with pytest.raises(ValueError, match="opponent"):
        OwnGameEnv(StoneGameIV(3), opponent="mcts")
