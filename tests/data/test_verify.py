"""A registered raw file is checked against the registry before use, wherever it came from."""

from __future__ import annotations

import ast
import hashlib
import os
import shutil
from pathlib import Path

import pytest

from data_mirror import mirror_file

from geobayes.data import ChecksumMismatchError, DataSourceError, get_file, registered_name, verified
from geobayes.data import verify as verify_module

REPO = Path(__file__).resolve().parents[2]
FILE = "logreg/ripley.npy"


@pytest.fixture
def raw_copy(tmp_path: Path) -> Path:
    """A copy of a real registered file laid out as the pipeline's ``data/raw``."""
    target = tmp_path / "data" / "raw" / FILE
    target.parent.mkdir(parents=True)
    shutil.copyfile(mirror_file(FILE), target)
    return target


def _tamper(path: Path) -> str:
    """Flip one byte (same size, as a hand-edited or corrupted file); return the new sha256."""
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0x01
    stat = path.stat()
    path.write_bytes(bytes(data))
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000_000))  # a later write
    return hashlib.sha256(bytes(data)).hexdigest()


def test_genuine_file_passes_and_is_hashed_once(raw_copy):
    before = verify_module._digest.cache_info()
    assert verified(raw_copy) == raw_copy
    assert verified(str(raw_copy)) == raw_copy
    after = verify_module._digest.cache_info()
    assert after.misses - before.misses == 1 and after.hits - before.hits == 1


def test_tampered_copy_raises_one_line_naming_file_hashes_and_fix(raw_copy):
    actual = _tamper(raw_copy)
    entry = get_file(FILE)
    with pytest.raises(ChecksumMismatchError) as info:
        verified(raw_copy)
    message = str(info.value)
    assert "\n" not in message
    assert str(raw_copy) in message and FILE in message
    assert f"expected sha256 {entry.sha256}" in message and f"got sha256 {actual}" in message
    assert f"delete {raw_copy} and rerun" in message
    assert "GEOBAYES_DATA_MIRROR" in message and "data.mirror" in message and entry.url in message
    assert "reading stopped" not in message  # a local file is hashed whole
    assert info.value.actual_digest == actual and info.value.expected_digest == entry.sha256


def test_file_changed_after_a_check_is_hashed_again(raw_copy):
    verified(raw_copy)
    _tamper(raw_copy)
    with pytest.raises(ChecksumMismatchError):
        verified(raw_copy)


def test_wrong_file_under_a_registered_name_is_caught(tmp_path):
    """A different registered file placed by hand under this name (same kind, other content)."""
    target = tmp_path / "data" / "raw" / FILE
    target.parent.mkdir(parents=True)
    shutil.copyfile(mirror_file("logreg/heart.npy"), target)
    with pytest.raises(ChecksumMismatchError, match=get_file("logreg/heart.npy").sha256):
        verified(target)


def test_explicit_registry_name_for_any_local_path(tmp_path):
    copy = tmp_path / "renamed.npy"
    shutil.copyfile(mirror_file(FILE), copy)
    assert verified(copy, FILE) == copy
    with pytest.raises(ChecksumMismatchError, match="logreg/heart.npy"):
        verified(copy, "logreg/heart.npy")


def test_registered_name_is_the_longest_registered_ending():
    assert registered_name("data/raw/logreg/ripley.npy") == FILE
    assert registered_name("/x/y/snelson/rlaf_splits/snelson_data.npz") == "snelson/rlaf_splits/snelson_data.npz"
    with pytest.raises(KeyError, match="no registered data file"):
        registered_name("data/raw/logreg/unknown.npy")


def test_missing_file_says_how_to_fetch_it(tmp_path):
    path = tmp_path / "data" / "raw" / FILE
    with pytest.raises(DataSourceError, match=f"no file at {path}; run `snakemake {path}`"):
        verified(path)


def _reads_raw_input(tree: ast.AST) -> bool:
    return any(isinstance(n, ast.Attribute) and n.attr == "raw" and isinstance(n.value, ast.Attribute)
               and n.value.attr == "input" for n in ast.walk(tree))


def _calls(tree: ast.AST, name: str) -> bool:
    return any(isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == name for n in ast.walk(tree))


def test_every_script_reading_raw_data_verifies_it():
    """Each workflow script that reads a rule's ``raw`` input passes it through ``verified``
    and turns data errors into one line (``exit_on_data_error``)."""
    readers = []
    for script in sorted((REPO / "workflow" / "scripts").glob("*.py")):
        tree = ast.parse(script.read_text())
        if _reads_raw_input(tree):
            readers.append(script.name)
            assert _calls(tree, "verified") and _calls(tree, "exit_on_data_error"), script.name
    assert {"prepare_logreg.py", "prepare_glm.py", "prepare_usps.py", "prepare_growth.py",
            "prepare_snelson.py", "prepare_bnn_classifier.py"} <= set(readers)
