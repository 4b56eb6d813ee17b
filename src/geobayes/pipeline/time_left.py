"""The time a run has left, estimated from its own pace and each rule's typical job cost.

Snakemake prints "N of M steps (x%) done" after every finished job; a count of jobs says little
about time here, where a table job takes a second and a network's NUTS reference many minutes.
:func:`time_left` weighs every job by its rule's typical cost (``workflow/resources/
rule_seconds.tsv``: the mean job of each rule in a measured quick-scale run,
``benchmarks/rule_seconds.py``) and scales the weights to this run by its pace so far::

    left = elapsed * (weight of the jobs still to run) / (weight of the jobs done)

so a slower machine, another scale or a loaded one moves the estimate the way it moves the run.
A rule missing from the table weighs the table's median. The estimate is as good as the weights'
proportions are for this run: at paper scale, where the heavy rules weigh relatively more than at
quick scale, it starts low and catches up as the heavy jobs finish. ``workflow/rules/
progress.smk`` prints it under Snakemake's progress line.
"""

from __future__ import annotations

import csv
import re
import statistics
from collections.abc import Iterable, Mapping
from pathlib import Path


def load_rule_seconds(path: str | Path) -> dict[str, float]:
    """The ``rule``/``seconds`` table (tab-separated, a header row) as a mapping.

    Raises
    ------
    ValueError
        Naming the file and the row, if a row has no rule or no positive number of seconds.
    """
    weights = {}
    with open(path, newline="") as handle:
        for line, row in enumerate(csv.DictReader(handle, delimiter="\t"), start=2):
            try:
                seconds = float(row["seconds"])
            except (KeyError, TypeError, ValueError):
                seconds = float("nan")
            if not row.get("rule") or not seconds > 0:
                raise ValueError(f"{path}:{line}: expected a rule name and positive seconds, got {dict(row)}")
            weights[row["rule"]] = seconds
    return weights


#: Share of the run's weight that must be done before an estimate is given: the first jobs
#: (downloads, data preparation) weigh next to nothing and run beside the run's start-up, so a pace
#: taken from them alone overshoots many times.
MIN_DONE_FRACTION = 0.02


def time_left(elapsed_s: float, done: Iterable[str], remaining: Iterable[str],
              rule_seconds: Mapping[str, float], min_done_fraction: float = MIN_DONE_FRACTION) -> float | None:
    """Seconds the run has left: ``elapsed_s`` scaled by the remaining jobs' weight over the done ones'.

    Parameters
    ----------
    elapsed_s
        Wall seconds since the run's first job was scheduled.
    done, remaining
        The rule name of every job this run has finished, and of every job it has still to run.
    rule_seconds
        Typical seconds of a job of each rule (:func:`load_rule_seconds`); only the proportions
        matter.
    min_done_fraction
        No estimate until the done jobs weigh this share of all (:data:`MIN_DONE_FRACTION`).

    Returns
    -------
    float or None
        None while too little is done or nothing has been timed (no estimate can be had yet);
        0 when nothing remains.
    """
    if not rule_seconds:
        return None
    fallback = statistics.median(rule_seconds.values())

    def weight(rules: Iterable[str]) -> float:
        return sum(rule_seconds.get(rule, fallback) for rule in rules)

    remaining_weight = weight(remaining)
    if remaining_weight == 0:
        return 0.0
    done_weight = weight(done)
    if done_weight == 0 or elapsed_s <= 0 or done_weight < min_done_fraction * (done_weight + remaining_weight):
        return None
    return elapsed_s * remaining_weight / done_weight


_JOB_STATS_ROW = re.compile(r"^(\w+)\s+(\d+)$", re.M)


def job_stats(output: str) -> dict[str, int]:
    """Jobs per rule in the "Job stats" table that Snakemake prints before a run or dry run.

    Parameters
    ----------
    output
        The run's standard output.

    Returns
    -------
    dict
        Rule name to job count, with Snakemake's ``total`` row; empty where the output has no such
        table (nothing to run).
    """
    if "Job stats:" not in output:
        return {}
    block = output.split("Job stats:", 1)[1]
    return {m.group(1): int(m.group(2)) for m in _JOB_STATS_ROW.finditer(block)}


def format_time_left(seconds: float) -> str:
    """``about 1 h 05 min left``, ``about 12 min left``, ``under a minute left``."""
    minutes = round(seconds / 60)
    if minutes < 1:
        return "under a minute left"
    hours, minutes = divmod(minutes, 60)
    return f"about {hours} h {minutes:02d} min left" if hours else f"about {minutes} min left"
