"""The package's surface: version, stubs, docstrings."""

import inspect
import pathlib
import re

import vcalloc

from conftest import REPO


def test_version_is_the_crates():
    cargo = (REPO / "Cargo.toml").read_text()
    version = re.search(r'^version = "([^"]+)"', cargo, re.M).group(1)
    assert vcalloc.__version__ == version


def test_stubs_and_py_typed_are_installed():
    here = pathlib.Path(vcalloc.__file__).parent
    assert (here / "py.typed").exists()
    stub = (here / "__init__.pyi").read_text()
    for name in vcalloc.__all__:
        assert re.search(rf"\b{re.escape(name)}\b", stub), f"{name} is missing from the stubs"


def test_every_function_is_documented():
    for name in vcalloc.__all__:
        obj = getattr(vcalloc, name)
        if callable(obj):
            doc = inspect.getdoc(obj)
            assert doc and len(doc) > 40, name
    assert "KeyboardInterrupt" in vcalloc.solve.__doc__
    assert "settings" in inspect.signature(vcalloc.solve).parameters
