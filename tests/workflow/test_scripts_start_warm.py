"""Every workflow script hands its job to the run's warm process before importing anything else
(geobayes.pipeline.warm_start): a script that imported JAX first would pay the imports the warm
process exists to save, and one without the call would silently always run cold."""

import ast
from pathlib import Path

import pytest

SCRIPTS = sorted((Path(__file__).resolve().parents[2] / "workflow" / "scripts").glob("*.py"))


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda path: path.name)
def test_script_starts_by_handing_over(script):
    body = [node for node in ast.parse(script.read_text()).body
            if not (isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant))  # docstring
            and not (isinstance(node, ast.ImportFrom) and node.module == "__future__")]
    first, second = body[0], body[1]
    assert isinstance(first, ast.ImportFrom) and first.module == "geobayes.pipeline.warm_start", script.name
    assert [alias.name for alias in first.names] == ["hand_over"], script.name
    call = second.value if isinstance(second, ast.Expr) else None
    assert isinstance(call, ast.Call) and getattr(call.func, "id", None) == "hand_over", script.name
    assert [getattr(arg, "id", None) for arg in call.args] == ["snakemake"], script.name
