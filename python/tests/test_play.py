"""The play script: in a window, a click becomes an action and a whole game
against perfect play runs (no display needed: SDL's dummy driver); in text
mode, moves come from stdin and the end of input ends the game; without
pygame or a display it falls back to text mode and says why."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

import retrograde
from retrograde import play, rendering

#: Every cell of tic-tac-toe, one a line: the legal ones are played in turn.
EVERY_CELL = "".join(f"{c}{r}\n" for r in "123" for c in "abc")


def _play(*args: str, stdin: str, env: dict[str, str] | None = None, code: str | None = None):
    """The play script run in a fresh interpreter with ``stdin``; ``code``
    runs before it (e.g. to hide pygame)."""
    script = (
        f"{code or ''}\nimport sys\nfrom retrograde.play import main\nsys.exit(main(sys.argv[1:]))"
    )
    return subprocess.run(
        [sys.executable, "-c", script, *args],
        input=stdin,
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )


def test_a_click_names_a_column_or_a_cell():
    pygame = pytest.importorskip("pygame")
    window = rendering.Window("test", 5, 4)
    connect = retrograde.Game("connect", 5, 4)
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(3 * 64 + 10, 50), button=1))
    assert window.wait_for_click(connect) == 3
    window.close()
    window = rendering.Window("test", 3, 3)
    mnk = retrograde.Game("mnk", 3, 3)
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(70, 140), button=1))
    assert window.wait_for_click(mnk) == 2 * 3 + 1
    pygame.event.post(pygame.event.Event(pygame.QUIT))
    assert window.wait_for_click(mnk) is None
    window.close()


def test_a_game_against_perfect_play(monkeypatch, capsys):
    pytest.importorskip("pygame")
    clicks = iter([0, 0, 1, 1, 2, 2, 3, 3, 4, 4] * 3)
    monkeypatch.setattr(rendering.Window, "wait_for_click", lambda self, game: next(clicks))
    assert play.main(["--game", "mnk"]) == 0
    out = capsys.readouterr().out
    # tic-tac-toe against perfect play: the person never wins
    assert "O wins" in out or "drawn" in out
    assert "X wins" not in out


def test_text_mode_plays_a_game_from_stdin():
    done = _play("--text", "--game", "mnk", "--seed", "0", stdin="b2\nzz\n" + EVERY_CELL)
    assert done.returncode == 0 and done.stderr == "", done.stderr
    assert "not a legal move: 'zz'" in done.stdout
    assert "the machine plays" in done.stdout and "not proved" not in done.stdout
    assert done.stdout.splitlines()[-1] in ("O wins", "drawn"), done.stdout


def test_text_mode_ends_cleanly_at_the_end_of_input():
    for stdin in ("", "b2\n"):
        done = _play("--text", "--game", "mnk", stdin=stdin)
        assert (done.returncode, done.stderr) == (0, "")
        assert "X to move" in done.stdout


def test_play_without_pygame_falls_back_to_text_and_says_what_to_install():
    done = _play("--game", "mnk", stdin="b2\n", code="import sys; sys.modules['pygame'] = None")
    assert done.returncode == 0, done.stderr
    assert f"`{rendering.install_command()}`" in done.stderr and "text mode" in done.stderr
    assert "retrograde[render]" not in done.stderr
    assert "the machine plays" in done.stdout


@pytest.mark.skipif(sys.platform in ("win32", "darwin"), reason="a display needs no variable")
def test_play_without_a_display_falls_back_to_text():
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER")
    }
    done = _play("--game", "mnk", stdin="", env=env)
    assert done.returncode == 0, done.stderr
    assert "text mode" in done.stderr and "X to move" in done.stdout
    if rendering.has_pygame():
        assert "no display" in done.stderr
