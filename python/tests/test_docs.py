"""Every ```python block of the README and of docs/PYTHON.md runs as a user
would run it: in a fresh interpreter (``import retrograde`` alone, nothing
imported by the tests before it), with no display and no SDL driver chosen
(the environment of a server or CI, not the tests' dummy drivers), within
:data:`PEAK_MB` of resident memory, and nothing from SDL on stderr."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT

BLOCKS = [
    (path.name, i, block)
    for path in (ROOT / "README.md", ROOT / "docs" / "PYTHON.md")
    for i, block in enumerate(re.findall(r"```python\n(.*?)```", path.read_text(), re.S))
]

#: The most resident memory an example may take (its interpreter's peak).
PEAK_MB = 200

#: What SDL prints when it probes Wayland with no display to reach.
SDL_NOISE = "XDG_RUNTIME_DIR"

#: Runs a block (its file, its name) and writes the peak resident memory in
#: bytes to a file.
RUNNER = """\
import resource, sys
path, name, peak = sys.argv[1:]
code = open(path, encoding="utf-8").read()
exec(compile(code, name, "exec"), {"__name__": "__doc_example__"})
scale = 1 if sys.platform == "darwin" else 1024
with open(peak, "w") as out:
    out.write(str(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * scale))
"""


def _as_a_user() -> dict[str, str]:
    """The environment of a machine with no display: none of the variables
    that choose SDL's drivers or name a display or a runtime directory."""
    hidden = ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER", "SDL_AUDIODRIVER", "XDG_RUNTIME_DIR")
    return {k: v for k, v in os.environ.items() if k not in hidden}


def run_block(name: str, index: int, code: str, tmp_path: Path):
    """The block run in ``tmp_path``: (exit status, stderr, peak MB)."""
    script = tmp_path / "example.py"
    script.write_text(code, encoding="utf-8")
    peak = tmp_path / "peak"
    done = subprocess.run(
        [sys.executable, "-c", RUNNER, str(script), f"{name} block {index}", str(peak)],
        cwd=tmp_path,
        env=_as_a_user(),
        capture_output=True,
        text=True,
        timeout=600,
    )
    mb = int(peak.read_text()) / 2**20 if peak.exists() else None
    return done.returncode, done.stderr, mb


@pytest.mark.parametrize(("name", "index", "code"), BLOCKS, ids=[f"{n}-{i}" for n, i, _ in BLOCKS])
def test_example_runs(name, index, code, tmp_path):
    status, stderr, mb = run_block(name, index, code, tmp_path)
    assert status == 0, stderr
    assert mb is not None and mb <= PEAK_MB, f"{name} block {index}: peak {mb:.0f} MB"
    assert SDL_NOISE not in stderr, stderr


def test_the_documented_check_env_prints_nothing_from_sdl(tmp_path):
    """PYTHON.md's check_env block renders a "human" window of each
    environment (pygame is installed here): with no display SDL printed
    ``error: XDG_RUNTIME_DIR is invalid or not set in the environment.``
    once an environment."""
    pytest.importorskip("pygame")
    found = [(n, i, c) for n, i, c in BLOCKS if n == "PYTHON.md" and "check_env(" in c]
    assert found, "PYTHON.md shows check_env"
    status, stderr, _ = run_block(*found[0], tmp_path)
    assert status == 0, stderr
    assert SDL_NOISE not in stderr, stderr
