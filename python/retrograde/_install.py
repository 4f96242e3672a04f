"""The command that installs one of the package's extras, named from where
the package was installed, for the messages that say what is missing.

``retrograde`` is not on a package index, so ``pip install
'retrograde[render]'`` fails. Installed from a source tree (``pip install
.``, ``pip install -e .``, ``maturin develop``: the distribution's
``direct_url.json`` names a local directory), the extra is installed from
that directory, ``pip install '/path/to/checkout[render]'`` (``-e`` kept
for an editable install); otherwise (a wheel, or a checkout since moved)
the extra's own requirements are named, ``pip install 'pygame>=2.5'``.
The ``pip`` is the running interpreter's, ``python -m pip``, so that the
command installs where the package is (the README's ``.venv/bin/pip`` is
not on the ``PATH``).
"""

from __future__ import annotations

import json
import re
import shlex
import sys
from importlib import metadata
from pathlib import Path
from urllib.parse import unquote, urlparse

#: The distribution's name.
DISTRIBUTION = "retrograde"


def _source_tree(dist: metadata.Distribution) -> tuple[Path, bool] | None:
    """The local directory the package was installed from, and whether the
    install is editable; None when it was not installed from one that is
    still there."""
    try:
        text = dist.read_text("direct_url.json")
        info = json.loads(text) if text else None
    except (OSError, ValueError):
        return None
    if not isinstance(info, dict) or not isinstance(info.get("dir_info"), dict):
        return None
    url = urlparse(str(info.get("url", "")))
    if url.scheme != "file":
        return None
    path = Path(unquote(url.path))
    if not (path / "pyproject.toml").is_file():
        return None
    return path, bool(info["dir_info"].get("editable", False))


def _requirements(dist: metadata.Distribution, extra: str) -> list[str]:
    """The requirements ``extra`` adds, without their markers."""
    marker = re.compile(r"""extra\s*==\s*["']""" + re.escape(extra) + r"""["']""")
    return [
        requirement.split(";", 1)[0].strip()
        for requirement in dist.requires or []
        if marker.search(requirement)
    ]


def command(extra: str, fallback: str) -> str:
    """One line that installs ``extra`` here (``fallback`` names the
    package to install when the distribution's metadata cannot be read)."""
    pip = f"{shlex.quote(sys.executable)} -m pip install"
    try:
        dist = metadata.distribution(DISTRIBUTION)
    except metadata.PackageNotFoundError:
        return f"{pip} {shlex.quote(fallback)}"
    tree = _source_tree(dist)
    if tree is not None:
        path, editable = tree
        return f"{pip} {'-e ' if editable else ''}{shlex.quote(f'{path}[{extra}]')}"
    wanted = _requirements(dist, extra) or [fallback]
    return f"{pip} {' '.join(shlex.quote(r) for r in wanted)}"
