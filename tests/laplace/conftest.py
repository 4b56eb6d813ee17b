"""The Laplace tests compile as the pipeline does: XLA's full optimisation (tests/conftest.py)."""

import pytest

from compilation_mode import production_compilation


@pytest.fixture(autouse=True, scope="module")
def _production_compilation():
    """These tests fit networks and evidences whose results depend on rounding."""
    with production_compilation():
        yield
