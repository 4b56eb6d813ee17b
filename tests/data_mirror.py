"""Where the tests find the real data sets: as the pipeline does, and never a silent skip on CI.

The pipeline reads the mirror named by ``GEOBAYES_DATA_MIRROR`` (or the config key
``data.mirror``, ``../shared/data`` from the repository in the quick and tiny configs). The tests
look in the same places. A test whose data is absent is skipped with the reason on a developer's
machine (``make test`` prints every skip reason in its closing summary) and FAILS under
``CI=true``, where a missing mirror means the suite did not test what it claims.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
MIRROR_ENV = "GEOBAYES_DATA_MIRROR"


def mirror_root() -> Path:
    """The data mirror: ``$GEOBAYES_DATA_MIRROR``, else the configs' ``../shared/data``."""
    env = os.environ.get(MIRROR_ENV, "").strip()
    return (Path(env) if env else REPO / ".." / "shared" / "data").resolve()


def missing(what: str) -> None:
    """Skip (developer machine) or fail (``CI=true``) a test whose data is absent, saying how to fix it."""
    message = (f"{what} not found in the data mirror {mirror_root()}: set {MIRROR_ENV} to a copy of the pinned "
               f"files (or config data.mirror), see README 'Data'")
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(f"CI=true: {message}", pytrace=False)
    pytest.skip(message, allow_module_level=True)


def mirror_file(relative: str) -> Path:
    """A registered file of the mirror (e.g. ``logreg/ripley.npy``); skip or fail when absent."""
    path = mirror_root() / relative
    if not path.exists():
        missing(f"{relative}")
    return path
