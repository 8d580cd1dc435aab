# Type stubs of the `vcalloc` package (the docstrings are in __init__.py).
import os
from typing import Any, Dict, List, Literal, Mapping, Optional, Sequence, Tuple, Union, overload

__version__: str

PathLike = Union[str, os.PathLike[str]]
Document = Union[Mapping[str, Any], PathLike]

class InputError(ValueError):
    """Bad input; the message is the command line's."""

class SolverError(RuntimeError):
    """A solver failure or an answer that failed its own verification."""

def problems() -> List[str]: ...
def methods(problem: str) -> Dict[str, str]: ...
def options(problem: str) -> Dict[str, Dict[str, str]]: ...
def settings(problem: str) -> Dict[str, Any]: ...
def generate(problem: str, *, seed: int, **options: Any) -> Dict[str, Any]: ...
def solve(
    problem: str,
    instance: Document,
    *,
    method: str,
    time_limit: Optional[float] = ...,
    seed: Optional[int] = ...,
    threads: Optional[int] = ...,
    settings: Optional[Mapping[str, Any]] = ...,
    **options: Any,
) -> Dict[str, Any]: ...
def verify(
    instance: Document,
    solution: Document,
    *,
    strict: bool = ...,
    deep: bool = ...,
    **options: Any,
) -> List[str]: ...
def experiments() -> Dict[str, Dict[str, str]]: ...
def experiment(
    name: str,
    *,
    out: PathLike,
    instances_per_spec: Optional[int] = ...,
    methods: Optional[Sequence[str]] = ...,
    time_limit: Optional[float] = ...,
    threads: Optional[int] = ...,
    seed: int = ...,
    shard: Optional[Tuple[int, int]] = ...,
    settings: Optional[Mapping[str, Any]] = ...,
    save_instances: bool = ...,
    input: Optional[PathLike] = ...,
) -> List[Dict[str, Any]]: ...
@overload
def rows(out: PathLike, frame: Literal[False] = ...) -> List[Dict[str, Any]]: ...
@overload
def rows(out: PathLike, frame: Literal[True]) -> Any: ...
