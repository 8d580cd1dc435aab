"""vcalloc: optimal and certified near-optimal resource allocation for virtualized clusters.

Every problem family of the engine, every method, bound and sweep, from Python. Instances and
answers are plain dicts (the JSON files of the command line); every answer carries its
``certificate`` (status, objective, bound, gap, seconds, the bound's proof), and was verified
by the engine before it was returned.

>>> import vcalloc
>>> inst = vcalloc.generate("vcsched", seed=1, hosts=4, jobs=12, slack=0.3, cv_mem=0.75, cv_cpu=0.75)
>>> sol = vcalloc.solve("vcsched", inst, method="milp", time_limit=10)
>>> sol["certificate"]["status"], sol["certificate"]["bound"]          # doctest: +SKIP
('optimal', 0.61...)
>>> vcalloc.verify(inst, sol)
[]

Bad input raises :class:`InputError` (a ``ValueError``) with the command line's message; a
solver failure raises :class:`SolverError` (a ``RuntimeError``). Solves release the GIL, so
Python threads solve at once.

**Ctrl-C** during :func:`solve` stops the search within a fraction of a second and raises
``KeyboardInterrupt``, as Python code does, so that a loop of solves stops too; the answer the
search had (its incumbent and bound, status as at a time limit, verified) is on the exception
as ``.answer`` (``None`` when there was none). Ctrl-C stops every solve in flight in the process;
the solves of other threads return their answers so far as at a time limit. :func:`experiment`
is not interrupted mid-run (a row cut short must not be recorded as done): it raises once it
has finished; a killed process's sweep resumes where it stopped.
"""

from __future__ import annotations

import json
import os
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple, Union

from . import _vcalloc as _native
from ._vcalloc import InputError, SolverError

__version__: str = _native.__version__

__all__ = [
    "__version__",
    "InputError",
    "SolverError",
    "problems",
    "methods",
    "options",
    "settings",
    "generate",
    "solve",
    "verify",
    "experiments",
    "experiment",
    "rows",
]

PathLike = Union[str, "os.PathLike[str]"]
Document = Union[Mapping[str, Any], PathLike]


def _bad(name: str, value: Any, why: str) -> InputError:
    return InputError(f"invalid input: <arguments>: argument `{name}`: value `{value}`: {why}")


def _document(value: Any, name: str) -> Tuple[str, bool]:
    """A dict as JSON text (inline), a path as its text."""
    if isinstance(value, Mapping):
        try:
            return json.dumps(value, allow_nan=False), True
        except (TypeError, ValueError) as e:
            raise _bad(name, type(value).__name__, f"not a JSON document: {e}") from None
    if isinstance(value, (str, os.PathLike)):
        return os.fspath(value), False
    raise _bad(name, type(value).__name__, "expected a dict (the JSON document) or a path")


def _option_text(value: Any) -> str:
    if isinstance(value, str):
        return value
    return json.dumps(value)


def _options(options: Mapping[str, Any]) -> List[Tuple[str, str]]:
    return [(k, _option_text(v)) for k, v in options.items() if v is not None]


def _count(name: str, value: Any, least: int) -> Optional[int]:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < least:
        raise _bad(name, value, f"must be an integer of at least {least}")
    return value


def _seconds(value: Any) -> Optional[float]:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise _bad("time_limit", value, "must be a positive number of seconds")
    return float(value)


def problems() -> List[str]:
    """The registered problem families, in the order the command line lists them."""
    return list(_native.problems())


def methods(problem: str) -> Dict[str, str]:
    """A problem's methods: name → one line on what it does (``vcalloc methods PROBLEM``)."""
    return dict(_native.methods(problem))


def options(problem: str) -> Dict[str, Dict[str, str]]:
    """A problem's keyword options: name → {command, value, help}.

    ``command`` is ``generate`` (options of :func:`generate`), ``solve`` (settings shortcuts
    of :func:`solve`) or ``solve/verify`` (how an instance file is read; :func:`verify` takes
    them too). ``value`` names the value, or is ``switch`` (pass ``True``). The names are the
    command line's with dashes as underscores (``--cv-mem`` → ``cv_mem``).
    """
    return {
        name: {"command": command, "value": kind, "help": text}
        for name, command, kind, text in _native.options(problem)
    }


def settings(problem: str) -> Dict[str, Any]:
    """Every setting of a problem's methods with its default (``vcalloc settings PROBLEM``).

    :func:`solve`'s ``settings=`` takes a partial dict of the same shape: the keys given
    override these defaults, the rest keep them.
    """
    return json.loads(_native.settings(problem))


def generate(problem: str, *, seed: int, **options: Any) -> Dict[str, Any]:
    """A random instance, deterministic in ``seed`` (``vcalloc generate PROBLEM --seed K``).

    The family's generator options are keyword arguments with the command line's names,
    dashes as underscores: ``generate("vcsched", seed=1, hosts=4, jobs=12, slack=0.3,
    cv_mem=0.75, cv_cpu=0.75)``. :func:`options` lists them. Returns the instance as a dict;
    a family whose generator writes another format (a ``.cbp`` file) still returns its JSON.
    """
    seed = _count("seed", seed, 0)
    if seed is None:
        raise _bad("seed", None, "required")
    return json.loads(_native.generate(problem, seed, _options(options)))


def solve(
    problem: str,
    instance: Document,
    *,
    method: str,
    time_limit: Optional[float] = None,
    seed: Optional[int] = None,
    threads: Optional[int] = None,
    settings: Optional[Mapping[str, Any]] = None,
    **options: Any,
) -> Dict[str, Any]:
    """Solves an instance with one method; the answer as a dict with its ``certificate``.

    ``instance`` is a dict (the JSON instance, e.g. from :func:`generate`) or a path to any
    file the command line reads (JSON, CSV, BPPLIB, SWF, ``.cbp``…). ``method`` is one of
    :func:`methods`. ``time_limit`` is wall-clock seconds for the whole method: on it the
    answer is the incumbent with its bound and gap. ``seed`` seeds the randomised methods;
    ``threads`` is what the external solver (HiGHS) may use. ``settings`` is a partial dict
    over :func:`settings`' defaults; ``**options`` are the family's ``solve`` options with the
    command line's names (``no_avg_phase=True``), applied over ``settings``.

    The answer is what ``vcalloc solve … --output FILE`` writes, verified by the engine:
    ``answer["certificate"]`` holds ``status`` (``optimal`` only with proof), ``objective``,
    ``bound``, ``gap``, ``seconds`` and the bound's ``proof``.

    The GIL is released while the engine works. Ctrl-C stops the search within a fraction of
    a second and raises ``KeyboardInterrupt`` whose ``.answer`` is the answer so far.

    Raises :class:`InputError` for a bad instance, method, option or setting, and
    :class:`SolverError` when a solver fails.
    """
    text, inline = _document(instance, "instance")
    settings_text = None
    if settings is not None:
        if not isinstance(settings, Mapping):
            raise _bad("settings", type(settings).__name__, "expected a dict of settings")
        settings_text, _ = _document(settings, "settings")
    if not isinstance(method, str):
        raise _bad("method", method, "expected a method name")
    answer, stopped = _native.solve(
        problem,
        text,
        inline,
        method,
        _seconds(time_limit),
        _count("seed", seed, 0),
        _count("threads", threads, 1),
        settings_text,
        _options(options),
    )
    result = json.loads(answer)
    if stopped:
        stop = KeyboardInterrupt("vcalloc.solve stopped by Ctrl-C; the answer so far is .answer")
        stop.answer = result  # type: ignore[attr-defined]
        raise stop
    return result


def verify(
    instance: Document,
    solution: Document,
    *,
    strict: bool = False,
    deep: bool = False,
    **options: Any,
) -> List[str]:
    """Re-checks a solution against its instance, independently of the method that made it.

    Both are dicts or paths (``vcalloc verify INSTANCE SOLUTION``); the problem is the one the
    solution's certificate names. Returns the violations, one line each: ``[]`` when every
    constraint and every reported figure (objective, bound, status, the bound's proof) holds.
    ``strict=True`` (``verify --strict``) adds a ``strict: ...`` line when an ``optimal`` or a
    bound rests only on a claim nothing re-derived; ``deep=True`` (``--deep``, 60 s) re-runs
    search proofs. ``**options`` are the family's input options (``hosts=4`` for a CSV
    instance) over those the solve recorded.
    """
    inst, inline_inst = _document(instance, "instance")
    sol, inline_sol = _document(solution, "solution")
    return list(
        _native.verify(inst, inline_inst, sol, inline_sol, _options(options), strict, deep)
    )


def experiments() -> Dict[str, Dict[str, str]]:
    """Every sweep and study: name → {problem, kind (``sweep`` or ``study``), title}."""
    return {
        name: {"problem": problem, "kind": kind, "title": title}
        for name, problem, kind, title in _native.experiments()
    }


def experiment(
    name: str,
    *,
    out: PathLike,
    instances_per_spec: Optional[int] = None,
    methods: Optional[Sequence[str]] = None,
    time_limit: Optional[float] = None,
    threads: Optional[int] = None,
    seed: int = 1,
    shard: Optional[Tuple[int, int]] = None,
    settings: Optional[Mapping[str, Any]] = None,
    save_instances: bool = False,
    input: Optional[PathLike] = None,
) -> List[Dict[str, Any]]:
    """Runs a sweep or a study (``vcalloc experiment NAME --out DIR …``); the rows.

    A sweep generates its instances, solves each with ``methods`` (default: the sweep's) in
    ``threads`` parallel workers, appends one verified row per (instance, method) to
    ``out/results.csv`` (rows already there are kept: a run resumes) and writes
    ``out/report.md``. Returns :func:`rows` of ``out``. For a study (``instances_per_spec``
    is then its instance count, ``input`` its data folder) the report and plots are in
    ``out`` and the rows those of its ``results.csv`` if it writes one. A row whose method
    failed carries the message in ``error``. :func:`experiments` lists the names.
    """
    if isinstance(methods, str):
        methods = [methods]
    settings_text = None
    if settings is not None:
        settings_text, _ = _document(settings, "settings")
    if shard is not None:
        k, n = shard
        if not (isinstance(k, int) and isinstance(n, int) and 1 <= k <= n):
            raise _bad("shard", shard, "expected (k, n) with 1 <= k <= n")
    text = _native.experiment(
        name,
        os.fspath(out),
        _count("instances_per_spec", instances_per_spec, 1),
        list(methods or []),
        _seconds(time_limit),
        _count("threads", threads, 1),
        _count("seed", seed, 0),
        shard,
        settings_text,
        bool(save_instances),
        None if input is None else os.fspath(input),
    )
    return json.loads(text)


def rows(out: PathLike, frame: bool = False) -> Any:
    """The rows of a sweep's ``out/results.csv``: a list of dicts (numbers as numbers, empty
    cells ``None``), or with ``frame=True`` a pandas DataFrame (pandas must be installed)."""
    data = json.loads(_native.rows(os.fspath(out)))
    if not frame:
        return data
    try:
        import pandas
    except ImportError as e:
        raise ImportError("vcalloc.rows(frame=True) needs pandas: pip install pandas") from e
    return pandas.DataFrame(data)
