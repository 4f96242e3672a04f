"""The environments pass Gymnasium's and PettingZoo's own checkers (with
pygame and without), render in every mode, and reproduce an episode from a
seed."""

from __future__ import annotations

import importlib.metadata
import json
import shlex
import subprocess
import sys
from pathlib import Path

import gymnasium
import numpy as np
import pytest
from gymnasium.error import DependencyNotInstalled
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

import retrograde
from conftest import ROOT, NeverFinishes
from retrograde import _install, opponents, rendering
from retrograde.aec import BoardGameEnv, connect_four_env, mnk_env


@pytest.mark.parametrize(
    ("env_id", "kwargs"),
    [
        ("retrograde/ConnectFour-v0", {"cols": 5, "rows": 4, "opponent": "random"}),
        ("retrograde/ConnectFour-v0", {"cols": 5, "rows": 4, "opponent": "mcts", "playouts": 50}),
        ("retrograde/ConnectFour-v0", {"cols": 5, "rows": 4, "opponent": "perfect"}),
        ("retrograde/ConnectFour-v0", {"cols": 4, "rows": 4, "agent_player": 1}),
        ("retrograde/MNK-v0", {"opponent": "perfect"}),
        ("retrograde/MNK-v0", {"cols": 4, "rows": 3, "k": 3, "opponent": "mcts", "playouts": 50}),
    ],
)
def test_gymnasium_check_env(env_id, kwargs):
    env = gymnasium.make(env_id, **kwargs)
    check_env(env.unwrapped, skip_render_check=False)
    env.close()


def test_gymnasium_with_a_table():
    table = retrograde.solve("mnk", 3, 3, 3)
    env = gymnasium.make("retrograde/MNK-v0", opponent="perfect", table=table)
    check_env(env.unwrapped)


@pytest.mark.parametrize(
    "make",
    [
        connect_four_env,
        lambda: connect_four_env(cols=5, rows=4),
        lambda: connect_four_env(cols=8, rows=8, k=5),
        mnk_env,
        lambda: mnk_env(cols=5, rows=4, k=4),
    ],
)
def test_pettingzoo_api_and_seed(make):
    api_test(make(), num_cycles=200)
    seed_test(make, num_cycles=50)


def test_the_submodules_are_attributes_of_the_package():
    """``retrograde.aec.connect_four_env()`` as PYTHON.md writes it, after
    ``import retrograde`` alone (an AttributeError before), the submodule
    imported at that first use; without PettingZoo, an error that says what
    to install."""
    code = (
        "import sys, retrograde\n"
        "assert 'retrograde.aec' not in sys.modules\n"
        "env = retrograde.aec.connect_four_env(cols=5, rows=4)\n"
        "env.step(2)\n"
        "assert env.game.moves == '3' and env.agent_selection == 'player_1'\n"
        "assert retrograde.opponents.DEFAULT_MAX_MEMORY and 'aec' in dir(retrograde)\n"
        "assert not hasattr(retrograde, 'nonesuch')\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
    code = (
        "import sys\n"
        "sys.modules['pettingzoo'] = None\n"
        "import retrograde\n"
        "try:\n"
        "    retrograde.aec\n"
        "except ModuleNotFoundError as missing:\n"
        "    print(missing.name, missing)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.startswith("pettingzoo retrograde.aec needs PettingZoo")
    assert f"`{_install.command('pettingzoo', 'pettingzoo')}`" in done.stdout


def test_pettingzoo_registry():
    from pettingzoo import make

    env = make("aec", "retrograde/connect_four_v0", cols=6, rows=5)
    assert isinstance(env, BoardGameEnv) and env.game.cols == 6
    assert make("aec", "retrograde/mnk_v0").game.family == "mnk"


def test_a_seed_reproduces_an_episode():
    def episode(seed):
        env = gymnasium.make(
            "retrograde/ConnectFour-v0", cols=5, rows=4, opponent="mcts", playouts=30
        )
        obs, _ = env.reset(seed=seed)
        rng = np.random.default_rng(0)
        frames = [obs["observation"].copy()]
        done = False
        while not done:
            action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
            obs, reward, done, _, _ = env.step(action)
            frames.append(obs["observation"].copy())
        return frames, reward

    a, b = episode(5), episode(5)
    assert len(a[0]) == len(b[0]) and all(
        np.array_equal(x, y) for x, y in zip(a[0], b[0], strict=True)
    )
    assert a[1] == b[1]


def test_illegal_move_ends_the_episode():
    env = gymnasium.make("retrograde/MNK-v0", opponent="random")
    obs, _ = env.reset(seed=1)
    taken = int(np.flatnonzero(obs["action_mask"] == 1)[0])
    obs, *_ = env.step(taken)
    obs, reward, terminated, truncated, info = env.step(taken)
    assert (reward, terminated, truncated, info.get("illegal")) == (-1.0, True, False, True)
    with pytest.raises(RuntimeError):
        env.step(1)
    _, reward, terminated, *_ = env.reset(seed=2) and env.step(99)
    assert (reward, terminated) == (-1.0, True)


#: Actions as a policy may give them: NumPy integer scalars and 0-d integer
#: arrays, which the action space ``contains`` (a 0-d array was scored as an
#: illegal move).
NUMPY_ACTIONS = {
    "np.int64": np.int64,
    "np.int32": np.int32,
    "np.uint8": np.uint8,
    "np.array": np.array,
    "np.array-int8": lambda a: np.array(a, dtype=np.int8),
}

#: What the action space does not contain, played as an illegal move as before.
NOT_ACTIONS = [2.0, "2", np.array([2]), np.array(2.0), np.bool_(True), np.array(99), None]


@pytest.mark.parametrize("form", NUMPY_ACTIONS.values(), ids=NUMPY_ACTIONS.keys())
def test_every_action_the_space_contains_is_played(form):
    action = form(2)
    for env_id in ("retrograde/ConnectFour-v0", "retrograde/MNK-v0"):
        env, plain = (gymnasium.make(env_id, opponent="random") for _ in range(2))
        assert env.action_space.contains(action)
        env.reset(seed=3)
        plain.reset(seed=3)
        obs, reward, terminated, _, info = env.step(action)
        want_obs, want_reward, want_terminated, _, _ = plain.step(2)
        assert "illegal" not in info and (reward, terminated) == (want_reward, want_terminated)
        assert np.array_equal(obs["observation"], want_obs["observation"])
    for make in (connect_four_env, mnk_env):
        env, plain = make(), make()
        assert env.action_space(env.agent_selection).contains(action)
        env.step(action)
        plain.step(2)
        assert not any(env.terminations.values()) and env.game.moves == plain.game.moves
    result = retrograde.evaluate(
        lambda observation, mask: form(np.flatnonzero(mask)[0]),
        family="mnk",
        cols=3,
        rows=3,
        games=2,
        table=retrograde.solve("mnk", 3, 3, 3),
    )
    assert result.illegal == 0 and result.moves > 0


@pytest.mark.parametrize("action", NOT_ACTIONS, ids=repr)
def test_what_the_space_does_not_contain_is_an_illegal_move(action):
    env = gymnasium.make("retrograde/ConnectFour-v0", opponent="random")
    assert not env.action_space.contains(action)
    env.reset(seed=0)
    _, reward, terminated, _, info = env.step(action)
    assert (reward, terminated, info.get("illegal")) == (-1.0, True, True)
    aec = connect_four_env()
    aec.step(action)
    assert aec.rewards == {"player_0": -1, "player_1": 0} and all(aec.terminations.values())


def test_info_says_whether_the_opponent_s_move_was_proved(monkeypatch):
    table = retrograde.solve("connect", 4, 4)
    env = gymnasium.make("retrograde/ConnectFour-v0", cols=4, rows=4, table=table)
    _, info = env.reset(seed=0)
    assert "opponent_proved" not in info  # the opponent has not moved
    assert env.step(0)[4]["opponent_proved"] is True
    assert "opponent_proved" not in env.step(9)[4]  # illegal: no answer
    env = gymnasium.make("retrograde/ConnectFour-v0", opponent="random", agent_player=1)
    assert env.reset(seed=0)[1]["opponent_proved"] is False
    monkeypatch.setattr(opponents, "Searcher", NeverFinishes)
    env = gymnasium.make("retrograde/ConnectFour-v0")
    env.reset(seed=0)
    _, reward, done, _, info = env.step(3)
    assert info["opponent_proved"] is False and (reward, done) == (0.0, False)
    assert env.unwrapped.game.stones == 2


@pytest.mark.parametrize("mode", ["ansi", "rgb_array", "human"])
def test_render_modes(mode):
    if mode == "human":
        pytest.importorskip("pygame")
    env = connect_four_env(cols=5, rows=4, render_mode=mode)
    env.reset()
    env.step(2)
    env.step(2)
    picture = env.render()
    if mode == "ansi":
        assert "X" in picture and "O to move" not in picture and "X to move" in picture
    elif mode == "rgb_array":
        assert picture.shape == (4 * 64, 5 * 64, 3) and picture.dtype == np.uint8
        # a red disc in the bottom row of the third column
        assert tuple(picture[3 * 64 + 32, 2 * 64 + 32]) == (215, 40, 40)
    else:
        assert picture is None
    env.close()
    gym = gymnasium.make("retrograde/MNK-v0", opponent="random", render_mode=mode)
    gym.reset(seed=0)
    out = gym.render()
    assert (out is None) == (mode == "human")
    gym.close()


@pytest.fixture
def without_pygame(monkeypatch):
    """pygame as on a plain install, without the render extra: importing it
    fails."""
    monkeypatch.setitem(sys.modules, "pygame", None)


def test_human_rendering_without_pygame_says_what_to_install(without_pygame):
    """Refused when the environment is made (it failed at the first render
    with a bare ModuleNotFoundError)."""
    for make in (
        lambda: gymnasium.make("retrograde/ConnectFour-v0", render_mode="human"),
        lambda: gymnasium.make("retrograde/MNK-v0", opponent="random", render_mode="human"),
        lambda: connect_four_env(render_mode="human"),
    ):
        with pytest.raises(DependencyNotInstalled) as refused:
            make()
        message = str(refused.value)
        assert f"`{rendering.install_command()}`" in message and "\n" not in message
        assert "retrograde[render]" not in message  # not on an index: that failed


def _installed(tmp_path, direct_url: dict | None):
    """A distribution of the package as pip records it: its metadata (the
    two extras' requirements) and, if given, ``direct_url.json``."""
    info = tmp_path / "retrograde-0.1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(
        "Metadata-Version: 2.4\nName: retrograde\nVersion: 0.1.0\n"
        "Requires-Dist: numpy>=1.24\n"
        "Requires-Dist: pettingzoo>=1.25 ; extra == 'pettingzoo'\n"
        "Requires-Dist: pygame>=2.5 ; extra == 'render'\n"
        "Provides-Extra: pettingzoo\nProvides-Extra: render\n"
    )
    if direct_url is not None:
        (info / "direct_url.json").write_text(json.dumps(direct_url))
    return importlib.metadata.PathDistribution(info)


def test_the_install_hint_names_where_the_package_came_from(tmp_path, monkeypatch):
    """From a checkout (``pip install .``, ``-e .``, ``maturin develop``) the
    extra of that checkout, else the extra's requirements: never
    ``retrograde[render]`` from an index, where the package is not."""
    checkout = tmp_path / "my checkout"
    checkout.mkdir()
    (checkout / "pyproject.toml").write_text("")
    gone = tmp_path / "moved away"
    pip = [sys.executable, "-m", "pip", "install"]
    cases = [
        ({"url": checkout.as_uri(), "dir_info": {}}, [f"{checkout}[render]"]),
        ({"url": checkout.as_uri(), "dir_info": {"editable": True}}, ["-e", f"{checkout}[render]"]),
        ({"url": gone.as_uri(), "dir_info": {}}, ["pygame>=2.5"]),
        ({"url": "https://example.org/r.whl", "archive_info": {}}, ["pygame>=2.5"]),
        (None, ["pygame>=2.5"]),
    ]
    for number, (direct_url, want) in enumerate(cases):
        dist = _installed(tmp_path / str(number), direct_url)
        monkeypatch.setattr(_install.metadata, "distribution", lambda name, d=dist: d)
        assert shlex.split(rendering.install_command()) == pip + want, direct_url

    def missing(name):
        raise importlib.metadata.PackageNotFoundError(name)

    monkeypatch.setattr(_install.metadata, "distribution", missing)
    assert shlex.split(rendering.install_command()) == pip + ["pygame"]


def test_the_install_hint_of_this_install():
    """This package was built from this checkout (scripts/python-env.sh:
    ``maturin develop``, editable): the hint installs the checkout's extra."""
    text = importlib.metadata.distribution("retrograde").read_text("direct_url.json")
    if text is None or "dir_info" not in json.loads(text):
        pytest.skip("not installed from a source tree")
    words = shlex.split(rendering.install_command())
    assert words[:4] == [sys.executable, "-m", "pip", "install"]
    assert words[-1].endswith("[render]")
    assert Path(words[-1].removesuffix("[render]")).resolve() == ROOT


def test_check_env_passes_without_pygame(without_pygame):
    """It made an environment of every mode in ``metadata``, "human"
    included, and rendered it."""
    env = gymnasium.make("retrograde/ConnectFour-v0", cols=5, rows=4, opponent="random")
    assert env.unwrapped.metadata["render_modes"] == ["ansi", "rgb_array"]
    check_env(env.unwrapped, skip_render_check=False)
    aec = connect_four_env(cols=5, rows=4)
    assert aec.metadata["render_modes"] == ["ansi", "rgb_array"]
    api_test(aec, num_cycles=20)


def test_an_environment_without_a_window_does_not_load_pygame():
    """Whether pygame is there is looked up, not imported (an import costs
    time and memory, and prints pygame's greeting)."""
    code = (
        "import sys, gymnasium, retrograde\n"
        "env = gymnasium.make('retrograde/MNK-v0', opponent='random', render_mode='ansi')\n"
        "env.reset(seed=0)\n"
        "assert 'pygame' not in sys.modules"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
