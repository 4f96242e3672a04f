"""The window: a click becomes an action, and a whole game against perfect
play runs through the play script (no display needed: SDL's dummy
driver)."""

from __future__ import annotations

import pygame

import retrograde
from retrograde import play, rendering


def test_a_click_names_a_column_or_a_cell():
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
    clicks = iter([0, 0, 1, 1, 2, 2, 3, 3, 4, 4] * 3)
    monkeypatch.setattr(rendering.Window, "wait_for_click", lambda self, game: next(clicks))
    assert play.main(["--game", "mnk"]) == 0
    out = capsys.readouterr().out
    # tic-tac-toe against perfect play: the person never wins
    assert "O wins" in out or "drawn" in out
    assert "X wins" not in out
