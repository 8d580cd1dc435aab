"""A sweep from Python: its rows returned, read back, and as a DataFrame when pandas is there."""

import pytest
import vcalloc


def test_a_sweep_returns_its_rows(tmp_path):
    out = tmp_path / "small"
    rows = vcalloc.experiment("vcsched-small", out=out, instances_per_spec=1, methods=["mcb8"],
                              threads=2, seed=0)
    # 144 specifications, one instance each, one method.
    assert len(rows) == 144
    assert {r["method"] for r in rows} == {"mcb8"}
    assert all(r["error"] is None for r in rows)
    # MCB8 may find no placement at 10% slack (status infeasible or unknown); where it has one, the LP bound is above it.
    placed = [r for r in rows if r["objective"] is not None]
    assert len(placed) > 100
    assert all(isinstance(r["objective"], (int, float)) and r["bound"] >= r["objective"] - 1e-9 for r in placed)
    # Seeds beyond 2**63 stay exact integers.
    assert all(isinstance(r["seed"], int) for r in rows)
    assert (out / "results.csv").exists() and (out / "report.md").exists()
    assert vcalloc.rows(out) == rows
    # Run again: every row is already there (resumed), nothing changes.
    assert vcalloc.experiment("vcsched-small", out=out, instances_per_spec=1, methods="mcb8", seed=0) == rows


def test_rows_of_an_empty_folder(tmp_path):
    assert vcalloc.rows(tmp_path) == []


def test_rows_as_a_data_frame(tmp_path):
    pandas = pytest.importorskip("pandas")
    out = tmp_path / "small"
    vcalloc.experiment("vcsched-small", out=out, instances_per_spec=1, methods=["gr"], seed=0)
    frame = vcalloc.rows(out, frame=True)
    assert isinstance(frame, pandas.DataFrame)
    assert len(frame) == 144 and "objective" in frame.columns
