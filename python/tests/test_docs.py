"""Every ```python block of the README and of docs/PYTHON.md runs."""

from __future__ import annotations

import re

import pytest

from conftest import ROOT

BLOCKS = [
    (path.name, i, block)
    for path in (ROOT / "README.md", ROOT / "docs" / "PYTHON.md")
    for i, block in enumerate(re.findall(r"```python\n(.*?)```", path.read_text(), re.S))
]


@pytest.mark.parametrize(("name", "index", "code"), BLOCKS, ids=[f"{n}-{i}" for n, i, _ in BLOCKS])
def test_example_runs(name, index, code, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    exec(compile(code, f"{name} block {index}", "exec"), {"__name__": "__doc_example__"})
