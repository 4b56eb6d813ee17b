"""Atomic writes, JSON conversion, npz round trips and provenance."""

from __future__ import annotations

import json
from pathlib import Path

import jax.numpy as jnp
import numpy as np
import pytest

from geobayes import io


def _leftovers(directory: Path) -> list[str]:
    return sorted(p.name for p in directory.iterdir() if p.name.endswith(".tmp"))


def test_atomic_path_replaces_on_success(tmp_path):
    target = tmp_path / "sub" / "dir" / "out.txt"  # parents created
    with io.atomic_path(target) as tmp:
        assert tmp.exists() and tmp.parent == target.parent
        assert not target.exists()  # nothing visible before the block ends
        tmp.write_text("new")
    assert target.read_text() == "new"
    assert _leftovers(target.parent) == []


def test_atomic_path_exception_keeps_old_file_and_leaves_no_temp(tmp_path):
    target = tmp_path / "out.txt"
    target.write_text("old")
    with pytest.raises(RuntimeError, match="boom"):
        with io.atomic_path(target) as tmp:
            tmp.write_text("half-written")
            raise RuntimeError("boom")
    assert target.read_text() == "old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.txt"]


def test_atomic_path_exception_without_old_file_leaves_nothing(tmp_path):
    target = tmp_path / "never.txt"
    with pytest.raises(KeyboardInterrupt):
        with io.atomic_path(target) as tmp:
            tmp.write_text("x")
            raise KeyboardInterrupt
    assert list(tmp_path.iterdir()) == []


def test_json_converts_numpy_and_jax_types(tmp_path):
    obj = {
        "f32": np.float32(1.5),
        "f64": np.float64(0.1),
        "i64": np.int64(7),
        "bool": np.bool_(True),
        "array": np.arange(3),
        "matrix": np.eye(2),
        "jax": jnp.array([1.0, 2.0]),
        "jax_scalar": jnp.float64(2.5),
        "path": Path("a") / "b.txt",
        "set": {"b", "a"},
        "nested": [{"x": np.int32(1)}],
    }
    path = io.save_json(tmp_path / "r.json", obj)
    text = path.read_text()
    assert text.endswith("\n")
    assert list(json.loads(text)) == sorted(obj)  # sorted keys
    loaded = io.load_json(path)
    assert loaded == {
        "f32": 1.5,
        "f64": 0.1,
        "i64": 7,
        "bool": True,
        "array": [0, 1, 2],
        "matrix": [[1.0, 0.0], [0.0, 1.0]],
        "jax": [1.0, 2.0],
        "jax_scalar": 2.5,
        "path": str(Path("a") / "b.txt"),
        "set": ["a", "b"],
        "nested": [{"x": 1}],
    }
    assert type(loaded["i64"]) is int and type(loaded["bool"]) is bool


def test_json_unserialisable_raises_and_keeps_old_file(tmp_path):
    target = tmp_path / "r.json"
    io.save_json(target, {"ok": 1})
    with pytest.raises(TypeError, match="object"):
        io.save_json(target, {"bad": object()})
    assert io.load_json(target) == {"ok": 1}
    assert _leftovers(tmp_path) == []


def test_npz_round_trip(tmp_path):
    arrays = {
        "theta": np.random.default_rng(0).normal(size=(5, 3)),
        "successful": np.array([True, False, True]),
        "codes": np.array([0, 1, 0], dtype=np.int32),
        "jax": jnp.arange(4.0),
        "scalar": np.float64(3.0),
    }
    path = io.save_npz(tmp_path / "draws.data", **arrays)  # no suffix appended
    assert path == tmp_path / "draws.data" and path.exists()
    assert _leftovers(tmp_path) == []
    loaded = io.load_npz(path)
    assert set(loaded) == set(arrays)
    for name, value in arrays.items():
        expected = np.asarray(value)
        np.testing.assert_array_equal(loaded[name], expected)
        assert loaded[name].dtype == expected.dtype and loaded[name].shape == expected.shape


def test_load_npz_refuses_pickles(tmp_path):
    path = tmp_path / "obj.npz"
    np.savez(path, obj=np.array([{"a": 1}], dtype=object))
    with pytest.raises(ValueError):
        io.load_npz(path)


def test_provenance_fields():
    record = io.provenance()
    assert set(record) == {"python", "platform", "packages", "jax_backend", "git_commit", "xla_flags"}
    assert set(record["packages"]) == set(io.PROVENANCE_PACKAGES)
    assert record["packages"]["numpy"] == np.__version__
    assert record["jax_backend"] == "cpu"
    json.dumps(record)  # JSON-ready as is


def test_provenance_of_a_job_without_jax_neither_imports_jax_nor_records_a_backend():
    """An evaluation, floor, table or figure job never imports JAX; recording the sidecar's
    provenance must not import it either (about 2 s of such a job)."""
    import subprocess
    import sys

    probe = "import sys\nfrom geobayes.io import provenance\nr = provenance()\nprint('jax' in sys.modules, r['jax_backend'])"
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert result.stdout.split() == ["False", "None"]


def test_load_npz_names_missing_required_arrays(tmp_path):
    from geobayes.io import load_npz, save_npz

    path = save_npz(tmp_path / "a.npz", X=np.zeros((2, 2)))
    assert set(load_npz(path, required=("X",))) == {"X"}
    with pytest.raises(ValueError, match=r"a\.npz: not a thing file; missing \['y'\]"):
        load_npz(path, required=("X", "y"), what="thing file")


# A writer that has written half of a 16 MB array into its temporary file, says where, and
# waits to be killed.
_KILLED_WRITER = """
import sys, time
import numpy as np
from geobayes import io
big = np.arange(2_000_000, dtype=np.float64)
with io.atomic_path(sys.argv[1]) as tmp, open(tmp, "wb") as handle:
    handle.write(big[: big.size // 2].tobytes())
    handle.flush()
    print(tmp, flush=True)
    time.sleep(120)
"""


@pytest.mark.parametrize("existed", [False, True])
def test_writer_killed_mid_write_leaves_target_untouched(tmp_path, existed):
    """SIGKILL in the middle of a write: the destination is absent (or still the old, whole
    file), never half-written; the killed writer's hidden temporary file is removed by the
    next write of the same destination."""
    import signal
    import subprocess
    import sys

    target = tmp_path / "samples.npz"
    if existed:
        io.save_npz(target, theta=np.ones(4))
    child = subprocess.Popen([sys.executable, "-c", _KILLED_WRITER, str(target)],
                             stdout=subprocess.PIPE, text=True)
    try:
        tmp = Path(child.stdout.readline().strip())
        assert tmp.parent == tmp_path and tmp.stat().st_size == 8_000_000  # mid-write
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait(timeout=30)
        child.stdout.close()
    assert child.returncode == -signal.SIGKILL
    if existed:
        np.testing.assert_array_equal(io.load_npz(target)["theta"], np.ones(4))
    else:
        assert not target.exists()
    assert _leftovers(tmp_path) == [tmp.name]  # hidden; a killed process cannot clean up
    io.save_npz(target, theta=np.zeros(2))  # the rerun of the job
    np.testing.assert_array_equal(io.load_npz(target)["theta"], np.zeros(2))
    assert _leftovers(tmp_path) == []


def test_stale_temporaries_of_other_files_are_kept(tmp_path):
    """Only the destination's own leftovers are swept, not another file's temporary."""
    other = tmp_path / ".samples.npz.json.abcdefgh.tmp"  # would be a temp of 'samples.npz.json'
    other.write_text("x")
    io.save_json(tmp_path / "samples.npz", {"a": 1})
    assert other.exists()
