"""Collect every evaluation of one experiment into one tidy CSV (one row per run).

Columns: experiment, posterior, setting (the <dataset> part of the name), anchor, method, seed,
the distances and the cost/failure counts; logistic regressions also get dataset and inputs.
"""

import pandas as pd

from geobayes.io import load_json, save_csv
from geobayes.pipeline.step import logged_to
from geobayes.posterior import split_posterior_name

COLUMNS = ["wasserstein1", "wasserstein1_first", "wasserstein2", "T", "n_samples", "n_failed", "failed_fraction",
           "mean_steps", "max_residual"]

smk = snakemake  # noqa: F821
with logged_to(smk.log[0]) as log:
    experiment, rows = smk.wildcards.experiment, []
    for path in smk.input.evaluations:
        record = load_json(path)
        setting, model = split_posterior_name(record["posterior"])
        row = {"experiment": experiment, "posterior": record["posterior"], "setting": setting, "model": model,
               "anchor": record["anchor"], "method": record["method"], "seed": record["repetition"]}
        if experiment == "logreg":
            row["dataset"], row["inputs"] = setting.rsplit("_", 1)
        row.update({column: record.get(column) for column in COLUMNS})
        rows.append(row)
    table = pd.DataFrame(rows).sort_values(["posterior", "anchor", "method", "seed"])
    save_csv(table, smk.output[0])
    print(f"{len(table)} rows, {int(table['n_failed'].sum())} failed samples", file=log)
