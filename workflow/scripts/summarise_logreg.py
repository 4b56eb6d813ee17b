"""Collect every logistic-regression evaluation into one tidy CSV."""

import pandas as pd

from geobayes.io import load_json, save_csv
from geobayes.pipeline.step import logged_to
from geobayes.posterior import split_posterior_name

COLUMNS = ["wasserstein1", "T", "n_samples", "n_failed", "failed_fraction", "mean_steps"]

with logged_to(snakemake.log[0]) as log:  # noqa: F821
    rows = []
    for path in snakemake.input.evaluations:  # noqa: F821
        record = load_json(path)
        dataset_inputs, _ = split_posterior_name(record["posterior"])
        dataset, inputs = dataset_inputs.rsplit("_", 1)
        rows.append({"dataset": dataset, "inputs": inputs, "posterior": record["posterior"],
                     "method": record["method"], "seed": record["repetition"],
                     **{column: record[column] for column in COLUMNS}})
    table = pd.DataFrame(rows).sort_values(["inputs", "dataset", "method", "seed"])
    save_csv(table, snakemake.output[0])  # noqa: F821
    print(f"{len(table)} rows", file=log)
