"""Pictures of a board for the environments' render modes.

* ``ansi``: the position as text, with column labels and the status.
* ``rgb_array``: an ``H × W × 3`` ``uint8`` image drawn with numpy (no
  window, no pygame): Connect Four as red and yellow discs in a blue frame,
  m,n,k boards as black and white stones on a wooden board; the winning
  line's stones ringed.
* ``human``: that image in a pygame window (:class:`Window`), which also
  turns a click into an action for :mod:`retrograde.play`. pygame is the
  extra ``render`` (``pip install '.[render]'`` in the checkout): without
  it, asking for a window is Gymnasium's ``DependencyNotInstalled`` naming
  the command that installs it here (:func:`install_command`,
  :func:`pygame_module`), and :func:`available_modes` leaves ``human`` out.
  With no display to reach (:func:`no_display`: Linux or BSD with none of
  ``DISPLAY``, ``WAYLAND_DISPLAY``, ``SDL_VIDEODRIVER`` set, as in CI or
  under ``check_env`` on a server) the window is drawn on SDL's ``dummy``
  driver: nothing shows, and nothing is printed — SDL left to itself probes
  X11 and Wayland, and libwayland prints ``error: XDG_RUNTIME_DIR is
  invalid or not set in the environment.`` for each window, then draws
  off screen through EGL (about 85 MB more).
"""

from __future__ import annotations

import importlib.util
import os
import sys
from types import ModuleType

import gymnasium
import numpy as np
from gymnasium.error import DependencyNotInstalled

from retrograde import _install
from retrograde._native import Game

#: Pixels a cell.
CELL = 64

_COLOURS = {
    "connect": {
        "board": (30, 80, 200),
        "empty": (235, 235, 235),
        "stones": ((215, 40, 40), (245, 205, 40)),
        "ring": (20, 20, 20),
    },
    "mnk": {
        "board": (222, 184, 135),
        "empty": (222, 184, 135),
        "stones": ((25, 25, 25), (245, 245, 245)),
        "ring": (200, 30, 30),
    },
}


def ansi(game: Game) -> str:
    """The position as text, with who is to move or how the game ended."""
    if game.status == "won":
        line = f"{'XO'[game.winner]} wins"
    elif game.status == "drawn":
        line = "drawn"
    else:
        line = f"{'XO'[game.to_move]} to move"
    return game.render() + line + "\n"


def _disc(cell: int, radius: float) -> np.ndarray:
    """A boolean mask of a disc of ``radius`` centred in a ``cell``-pixel square."""
    centre = (cell - 1) / 2
    y, x = np.ogrid[:cell, :cell]
    return (x - centre) ** 2 + (y - centre) ** 2 <= radius**2


def rgb_array(game: Game, cell: int = CELL) -> np.ndarray:
    """The board as an ``(rows·cell) × (cols·cell) × 3`` ``uint8`` image."""
    colours = _COLOURS[game.family]
    rows, cols = game.rows, game.cols
    image = np.empty((rows * cell, cols * cell, 3), dtype=np.uint8)
    image[:] = colours["board"]
    hole = _disc(cell, cell * 0.4)
    ring = hole & ~_disc(cell, cell * 0.3)
    grid = np.frombuffer(game.grid(), dtype=np.uint8).reshape(rows, cols)
    winning = set(game.winning_cells())
    for r in range(rows):
        for c in range(cols):
            square = image[r * cell : (r + 1) * cell, c * cell : (c + 1) * cell]
            owner = grid[r, c]
            if owner == 0:
                if game.family == "connect":
                    square[hole] = colours["empty"]
                else:
                    # grid lines through the centre of the cell
                    mid = cell // 2
                    square[mid, :] = (90, 60, 30)
                    square[:, mid] = (90, 60, 30)
                continue
            square[hole] = colours["stones"][owner - 1]
            if r * cols + c in winning:
                square[ring] = colours["ring"]
    return image


#: The render modes both kinds of environment take.
RENDER_MODES = ["human", "ansi", "rgb_array"]


def install_command() -> str:
    """The command that installs pygame for a window, from where the package
    was installed (:mod:`retrograde._install`): the checkout's ``render``
    extra, or pygame itself."""
    return _install.command("render", "pygame")


def pygame_module() -> ModuleType:
    """pygame, imported; ``DependencyNotInstalled`` naming
    :func:`install_command` when it cannot be imported."""
    try:
        import pygame
    except ImportError as missing:
        raise DependencyNotInstalled(
            f"pygame is not installed: `{install_command()}` for a window "
            '(render_mode="human", python -m retrograde.play)'
        ) from missing
    return pygame


def has_pygame() -> bool:
    """Whether pygame is installed (found, not imported: an environment
    made without a window does not load it)."""
    return importlib.util.find_spec("pygame") is not None


def available_modes() -> list[str]:
    """The render modes that work here: :data:`RENDER_MODES`, without
    ``human`` when pygame is missing (what an environment's ``metadata``
    lists, so that ``check_env`` tries only those)."""
    return [m for m in RENDER_MODES if m != "human" or has_pygame()]


class Renderer:
    """An environment's ``render()`` and ``close()``: the mode checked once,
    when the environment is made (``human`` without pygame is refused
    then), the window opened at the first human render and kept."""

    def __init__(self, mode: str | None, title: str):
        if mode is not None and mode not in RENDER_MODES:
            raise ValueError(f"render_mode {mode!r} is not one of {RENDER_MODES}")
        if mode == "human":
            pygame_module()
        self.mode = mode
        self.title = title
        self._window: Window | None = None

    def render(self, game: Game, fps: float) -> str | np.ndarray | None:
        """Text (``ansi``), an image (``rgb_array``), or the window drawn
        (``human``: None); None with a warning without a mode."""
        if self.mode is None:
            gymnasium.logger.warn(
                "You are calling render method without specifying any render mode."
            )
            return None
        if self.mode == "ansi":
            return ansi(game)
        image = rgb_array(game)
        if self.mode == "rgb_array":
            return image
        if self._window is None:
            self._window = Window(self.title, game.cols, game.rows)
        self._window.show(image, fps)
        return None

    def close(self) -> None:
        """Closes the window, if one is open."""
        if self._window is not None:
            self._window.close()
            self._window = None


def no_display() -> bool:
    """Whether a window surely cannot open: a Linux or BSD system with no
    X or Wayland display, and no SDL video driver chosen."""
    if sys.platform in ("win32", "darwin"):
        return False
    return not any(os.environ.get(v) for v in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER"))


def _init_display(pygame: ModuleType) -> None:
    """``pygame.display.init()``, on SDL's ``dummy`` video driver when there
    is no display (:func:`no_display`). ``SDL_VIDEODRIVER`` is set for this
    call only, so the process's environment is left as it was."""
    if not no_display():
        pygame.display.init()
        return
    os.environ["SDL_VIDEODRIVER"] = "dummy"
    try:
        pygame.display.init()
    finally:
        del os.environ["SDL_VIDEODRIVER"]


class Window:
    """A pygame window showing a board (``render_mode="human"``; with no
    display, drawn on SDL's ``dummy`` driver: see the module doc)."""

    def __init__(self, title: str, cols: int, rows: int, cell: int = CELL):
        pygame = pygame_module()
        self._pygame = pygame
        self.cell = cell
        _init_display(pygame)
        pygame.display.set_caption(title)
        self.screen = pygame.display.set_mode((cols * cell, rows * cell))
        self.clock = pygame.time.Clock()

    def show(self, image: np.ndarray, fps: float | None = None) -> None:
        """Draws ``image`` (rows × cols × 3) and keeps the window alive."""
        pygame = self._pygame
        surface = pygame.surfarray.make_surface(np.transpose(image, (1, 0, 2)))
        self.screen.blit(surface, (0, 0))
        pygame.event.pump()
        pygame.display.flip()
        if fps:
            self.clock.tick(fps)

    def wait_for_click(self, game: Game) -> int | None:
        """The action a click names (a column on gravity boards, a cell on
        m,n,k boards); ``None`` when the window is closed."""
        pygame = self._pygame
        while True:
            event = pygame.event.wait()
            if event.type == pygame.QUIT:
                return None
            if event.type == pygame.MOUSEBUTTONDOWN:
                x, y = event.pos
                col, row = x // self.cell, y // self.cell
                if game.family == "connect":
                    return col
                return row * game.cols + col

    def close(self) -> None:
        """Closes the window."""
        self._pygame.display.quit()
