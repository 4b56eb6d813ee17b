"""Largest differences to a peer library, printed and saved once a test module has run (the
laplace-torch peer tests; on pytest's pythonpath)."""

from __future__ import annotations

import json
import os
import tempfile


def report(diffs: dict[str, float], name: str, title: str) -> None:
    """Write ``diffs`` to ``<tmp>/geobayes_<name>_diffs.json`` and print them under ``title``."""
    path = os.path.join(tempfile.gettempdir(), f"geobayes_{name}_diffs.json")
    with open(path, "w") as handle:
        json.dump(dict(sorted(diffs.items())), handle, indent=1)
    print(f"\n{title} ({path}):")
    for key, value in sorted(diffs.items()):
        print(f"  {key}: {value:.3e}")
