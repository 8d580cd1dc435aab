"""The Python examples of README.md and docs/guide.md run as printed (top-level ```python
blocks, in a fresh folder with a link to data/)."""

import os
import re

import pytest

from conftest import REPO


def blocks(doc):
    text = (REPO / doc).read_text()
    return re.findall(r"^```python\n(.*?)^```", text, re.M | re.S)


@pytest.mark.parametrize("doc", ["README.md", "docs/guide.md"])
def test_the_documents_python_runs(doc, tmp_path, monkeypatch):
    found = blocks(doc)
    assert found, f"no Python example in {doc}"
    os.symlink(REPO / "data", tmp_path / "data")
    monkeypatch.chdir(tmp_path)
    for code in found:
        exec(compile(code, f"{doc} example", "exec"), {})
