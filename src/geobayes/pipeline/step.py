"""What every pipeline step records: config echo, provenance, timings."""

from __future__ import annotations

import contextlib
import sys
import time
import traceback
from pathlib import Path

from geobayes.io import provenance


@contextlib.contextmanager
def logged_to(log_path: str | Path):
    """Send ``stderr`` (and warnings) of a step to its Snakemake log file."""
    Path(log_path).parent.mkdir(parents=True, exist_ok=True)
    with open(log_path, "w") as handle:
        previous = sys.stderr
        sys.stderr = handle
        try:
            yield handle
        except SystemExit:
            raise  # a deliberate exit has said why (e.g. a data error's one line): no traceback
        except BaseException:
            traceback.print_exc(file=handle)  # the error belongs in the rule's log too
            raise
        finally:
            sys.stderr = previous


class Stopwatch:
    """Named wall-clock timings (seconds) of a step's phases."""

    def __init__(self) -> None:
        self.timings: dict[str, float] = {}

    @contextlib.contextmanager
    def time(self, name: str):
        start = time.perf_counter()
        try:
            yield
        finally:
            self.timings[name] = time.perf_counter() - start


def sidecar(stage: str, config_echo: dict, device: str, timings: dict, **fields) -> dict:
    """JSON sidecar of a result: stage, config slice, device, versions, timings, extra fields."""
    return {
        "stage": stage,
        "config": config_echo,
        "device": device,
        "provenance": provenance(),
        "timings_s": timings,
        **fields,
    }
