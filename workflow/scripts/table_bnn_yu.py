"""Yu et al. (2024), Table 3 (raw) or Table 5 (standardised): MSE, NLL, T and seconds per sample
of each method on the complete and gap splits, ours beside the cited paper values."""

import math

from geobayes.io import load_json
from geobayes.pipeline.step import logged_to
from geobayes.report.bnn_table import write_bnn_table

smk = snakemake  # noqa: F821

with logged_to(smk.log[0]) as log:
    rows, samples = [], None
    for split in ("complete", "gap"):
        for method in [*smk.params.methods, "nuts"]:
            timing = smk.input.get(f"{split}_{method}_timing")
            # The paper's "time": wall-clock seconds per sample drawn one at a time.
            seconds = load_json(timing)["per_sample_median_s"] if timing else math.nan
            if method == "nuts":
                record = load_json(smk.input[f"{split}_nuts_json"])
                note = "" if record["reference_passed"] else f" (NUTS checks failed: {record['reference_failed_checks']})"
                for r, (mse, nll) in enumerate(zip(record["mse"], record["nll"])):
                    rows.append(dict(split=split, method=method, seed=r, mse=mse, nll=nll, T=math.nan,
                                     time_per_sample_s=math.nan, failures=0))
                print(f"{split} NUTS: {len(record['mse'])} subsets of {record['subset_size']} draws{note}", file=log)
                continue
            for seed in smk.params.seeds:
                record = load_json(smk.input[f"{split}_{method}_seed{seed}_json"])
                samples = record["n_samples"]
                rows.append(dict(split=split, method=method, seed=seed, mse=record["mse"], nll=record["nll"],
                                 T=record["T"] if method != "ela" else math.nan, time_per_sample_s=seconds,
                                 failures=record["n_failed"]))
    write_bnn_table(rows, smk.output.tex, smk.output.csv, inputs=smk.wildcards.scaling, samples=samples,
                    repetitions=len(smk.params.seeds), paper=smk.input.paper,
                    failure_treatment="Failed solves are left out of MSE and NLL and counted at the step cap in T.",
                    label=f"tab:bnn-yu-{smk.wildcards.scaling}")
    print(f"wrote {smk.output.tex} from {len(rows)} rows", file=log)
