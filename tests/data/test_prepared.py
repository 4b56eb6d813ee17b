"""The one prepared-data format: round trip, format tag, registered arrays, NaN/inf rejection."""

from __future__ import annotations

import numpy as np
import pytest

from geobayes.data.prepared import FORMAT, Prepared, dataset_spec, load_prepared, register_dataset, save_prepared
from geobayes.io import save_npz


def _snelson_arrays(rng: np.random.Generator) -> dict[str, np.ndarray]:
    return {"X": rng.normal(size=(6, 1)), "y": rng.normal(size=6), "X_test": rng.normal(size=(3, 1)),
            "y_test": rng.normal(size=3), "x_mean": np.float64(0.5), "x_std": np.float64(2.0),
            "y_mean": np.float64(-1.0), "y_std": np.float64(3.0)}


def test_round_trip_keeps_every_array_bit_for_bit_with_tag_and_metadata(tmp_path):
    arrays = _snelson_arrays(np.random.default_rng(0))
    path = save_prepared(tmp_path / "split.npz", "snelson", arrays, {"split": "random"})
    with np.load(path) as archive:
        assert str(archive["_format"]) == FORMAT
    loaded = load_prepared(path, "snelson")
    assert isinstance(loaded, Prepared) and loaded.dataset == "snelson"
    assert loaded.metadata == {"split": "random"}
    assert set(loaded) == set(arrays)
    for key, value in arrays.items():
        assert loaded[key].dtype == np.asarray(value).dtype
        np.testing.assert_array_equal(loaded[key], value)


@pytest.mark.parametrize("stage", ["save", "load"])
def test_nan_or_inf_is_rejected_naming_file_array_and_column(tmp_path, stage):
    X = np.ones((6, 3))
    X[3, 2] = np.nan
    X[4, 2] = np.inf
    arrays = {**_snelson_arrays(np.random.default_rng(1)), "X": X, "X_test": np.ones((3, 3))}
    path = tmp_path / "bad.npz"
    pattern = r"bad\.npz: array 'X' column 2 holds 2 NaN/inf value\(s\) \(first at row 3\)"
    if stage == "save":
        with pytest.raises(ValueError, match=pattern):
            save_prepared(path, "snelson", arrays)
        assert not path.exists()
    else:  # a file corrupted after preparation, or written by other code
        save_npz(path, **arrays, _format=np.asarray(FORMAT), _metadata=np.asarray('{"dataset": "snelson"}'))
        with pytest.raises(ValueError, match=pattern):
            load_prepared(path)


def test_nan_in_a_vector_names_the_array_and_row(tmp_path):
    arrays = _snelson_arrays(np.random.default_rng(2))
    arrays["y"][4] = -np.inf
    with pytest.raises(ValueError, match=r"array 'y' holds 1 NaN/inf value\(s\) \(first at row 4\)"):
        save_prepared(tmp_path / "y.npz", "snelson", arrays)


def test_untagged_file_unknown_dataset_and_missing_arrays_are_clear_errors(tmp_path):
    untagged = tmp_path / "old.npz"
    np.savez(untagged, X=np.zeros((2, 1)), y=np.zeros(2))
    with pytest.raises(ValueError, match=r"old\.npz: no '_format' tag"):
        load_prepared(untagged)
    with pytest.raises(KeyError, match="unknown data set 'nosuch'"):
        save_prepared(tmp_path / "a.npz", "nosuch", {"X": np.zeros((2, 1)), "y": np.zeros(2)})
    arrays = _snelson_arrays(np.random.default_rng(3))
    path = save_prepared(tmp_path / "s.npz", "snelson", arrays)
    with pytest.raises(KeyError, match=r"s\.npz: data set 'snelson' needs the arrays theta_trained"):
        load_prepared(path, required=("theta_trained",))
    with pytest.raises(ValueError, match="reserved"):
        save_prepared(tmp_path / "r.npz", "snelson", {**arrays, "_format": np.zeros(1)})


def test_x_and_y_must_agree_in_rows(tmp_path):
    arrays = {**_snelson_arrays(np.random.default_rng(4)), "y": np.zeros(5)}
    with pytest.raises(ValueError, match=r"expected X \(n, D\) and y \(n,\), got X \(6, 1\) and y \(5,\)"):
        save_prepared(tmp_path / "xy.npz", "snelson", arrays)


def test_every_prepare_data_set_is_registered_and_reregistering_differently_fails():
    for name in ("logreg", "banana", "glm", "synthetic", "usps", "growth", "lingauss", "snelson",
                 "trained_network", "sine", "banana_classification"):
        assert "X" in dataset_spec(name).arrays and "y" in dataset_spec(name).arrays, name
    with pytest.raises(ValueError, match="registered twice"):
        register_dataset("snelson", ("X",))


def test_reading_a_prepared_file_imports_no_heavy_library(tmp_path):
    """`dataset_spec` imports every data module (to find the registrations); none of them may import
    SciPy's statistics, scikit-learn or JAX at module level, or every job that reads prepared data
    pays for them (seconds each)."""
    import subprocess
    import sys

    path = tmp_path / "prepared.npz"
    save_prepared(path, "logreg", {"X": np.ones((3, 2)), "y": np.array([0.0, 1.0, 1.0]), "feature_mean": np.zeros(2),
                                   "feature_std": np.ones(2), "standardised": np.array(True)})
    probe = (f"import sys\nfrom geobayes.data.prepared import load_prepared\nload_prepared({str(path)!r})\n"
             "print(' '.join(m for m in ('scipy.stats', 'sklearn', 'jax', 'pandas') if m in sys.modules))")
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert result.stdout.split() == []
