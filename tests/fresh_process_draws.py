"""Draws of a script run in a fresh interpreter, with or without a persistent compilation cache, for
tests of what a new process compiles (tests/pipeline/test_compilation_cache.py, test_compile_effort.py)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np


def draw_in_fresh_process(script: str, path: Path, *args: str, cache: Path | None = None) -> np.ndarray:
    """Run ``script`` (which saves its draws to ``sys.argv[1]``) as ``python -c script path *args`` in a new
    interpreter without the caller's cache settings or XLA flags, with JAX's persistent compilation cache in
    ``cache`` (every compilation written) where one is given; return the saved draws."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("JAX_COMPILATION_CACHE", "XLA_FLAGS"))}
    if cache is not None:
        env.update(JAX_COMPILATION_CACHE_DIR=str(cache), JAX_PERSISTENT_CACHE_MIN_COMPILE_TIME_SECS="0",
                   JAX_PERSISTENT_CACHE_MIN_ENTRY_SIZE_BYTES="0")
    result = subprocess.run([sys.executable, "-c", script, str(path), *args], env=env, capture_output=True, text=True,
                            timeout=600)
    assert result.returncode == 0, result.stderr[-2000:]
    return np.load(path)


def cache_entries(cache: Path) -> set[str]:
    """The file names a persistent compilation cache holds."""
    return {p.name for p in cache.rglob("*") if p.is_file()}
