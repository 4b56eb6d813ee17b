"""Synthetic tidy summaries (``results/summary/<experiment>.csv``) for the benchmarks' table comparisons."""

from __future__ import annotations

import csv
from pathlib import Path


def bergamin_uci_summary(tree: Path, nll: dict[tuple[str, int], dict[str, float]]) -> None:
    """A tidy bergamin_uci summary: per (data set, seed) the NLL of each method, two repetitions; the other
    metrics of Tables 5 and 6 constant, so only the NLL has a single best method."""
    path = tree / "results" / "summary" / "bergamin_uci.csv"
    path.parent.mkdir(parents=True)
    with path.open("w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["experiment", "posterior", "anchor", "method", "repetition", "metric", "value",
                         "n_samples", "n_failed"])
        for (dataset, seed), values in nll.items():
            for prior in ("optimised", "fixed"):
                posterior = f"{dataset}_{prior}_seed{seed}-softmax50"
                for method, value in values.items():
                    for repetition, jitter in enumerate((0.0, 0.002)):
                        writer.writerow(["bergamin_uci", posterior, "euclidean", method, repetition, "nll",
                                         value + jitter, 30, 0])
                        for metric, constant in (("accuracy", 80.0), ("brier", 0.2), ("ece", 5.0)):
                            writer.writerow(["bergamin_uci", posterior, "euclidean", method, repetition, metric,
                                             constant, 30, 0])
