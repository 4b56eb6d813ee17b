"""Tidy results: every number the pipeline measures as one long row.

A row is one metric of one run: ``experiment, posterior, anchor, method, repetition, metric,
value`` plus the failure count and sample count of the run it came from (``n_failed``,
``n_samples``), so a failure is never separated from the number it qualifies. Every table,
figure and notebook reads this one shape (``results/summary/<experiment>.csv`` and their
concatenation ``results/summary/all.csv``); nothing downstream parses sidecars again.

The rows come from the JSON sidecars of the pipeline's stages through one declarative map per
stage (:data:`STAGE_METRICS`): which sidecar field becomes which metric. A stage without a
repetition (a timing) or an anchor writes an empty key, read back as missing. A sidecar that
measured several methods in one process lists them under :data:`PER_METHOD` (each entry a
``method`` and its fields; the sidecar's other fields are shared), e.g. ``timing_wg``. A metric
field holding a list (in a record without a ``repetition``) gives one row per element, with the
element's index as its repetition (e.g. the NUTS reference's predictive metrics over random
subsets of its draws).
"""

from __future__ import annotations

import math
import os
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

import numpy as np
import pandas as pd

from geobayes.methods import labels

__all__ = ["KEY_COLUMNS", "TIDY_COLUMNS", "WALL_CLOCK_METRICS", "STAGE_METRICS", "PER_METHOD", "tidy_rows", "tidy_frame", "load_tidy",
           "wide", "aggregate"]

#: Columns that identify a run (``anchor`` and ``repetition`` may be missing for a stage
#: that has none, e.g. a timing).
KEY_COLUMNS = ("experiment", "posterior", "anchor", "method", "repetition")

#: Metrics measured by the wall clock: they differ between two runs of the same config and seed,
#: every other metric is reproduced exactly (tests compare runs without these).
WALL_CLOCK_METRICS = frozenset({"seconds_per_sample", "min_seconds_per_sample", "median_seconds_per_sample",
                                "batched_seconds_per_sample",
                                "sequential_over_batched", "seconds_per_draw", "compile_seconds", "fit_seconds",
                                "wg_time_ratio", "seconds_per_step", "compile_s", "seconds_per_epoch",
                                "seconds_per_iteration", "reference_seconds", "build_seconds"})

#: Columns of a tidy results table, in order.
TIDY_COLUMNS = (*KEY_COLUMNS, "metric", "value", "n_samples", "n_failed")

#: Sidecar field -> metric name, per stage (the sidecar's ``stage``). A field absent or null in a
#: sidecar gives no row (e.g. a distance the experiment does not configure).
STAGE_METRICS: Mapping[str, Mapping[str, str]] = {
    # workflow/scripts/evaluate.py: exact distances to the reference and the run's cost
    "evaluation": {"wasserstein1": "wasserstein1", "wasserstein1_first": "wasserstein1_first",
                   "wasserstein2": "wasserstein2", "T": "T", "mean_steps": "mean_steps",
                   "failed_fraction": "failed_fraction", "max_residual": "max_residual",
                   # geodesic methods: the relative change of the conserved metric speed (speed_drift.py)
                   "median_speed_drift": "median_speed_drift", "max_speed_drift": "max_speed_drift",
                   # WG: samples its first solver left unsolved and the fallback solved again
                   "n_fallback": "n_fallback",
                   # the approximation's cost: seconds per sample of its batched draw without compilation
                   # (not Table 4's one-at-a-time seconds_per_sample), and the job's compile seconds
                   # (recorded by its first repetition only: the others reuse the executables)
                   "seconds_per_sample": "seconds_per_draw", "compile_s": "compile_seconds"},
    # workflow/rules/floor.smk: the same distances between two disjoint parts of the reference
    "floor": {"wasserstein1": "wasserstein1", "wasserstein1_first": "wasserstein1_first",
              "wasserstein2": "wasserstein2"},
    # workflow/scripts/time_sampling.py: seconds per sample one at a time and batched
    # workflow/scripts/time_wg.py: WG, LA, RLA-F and NUTS at equal sample counts (per_method; the
    # approximations' median and fastest of their interleaved calls), with WG's seconds per sample
    # (median) over each other method's
    "timing_wg": {"per_sample_s": "seconds_per_sample", "min_per_sample_s": "min_seconds_per_sample",
                  "wg_time_ratio": "wg_time_ratio", "fit_s": "fit_seconds", "divergences": "divergences"},
    "timing": {"per_sample_s": "seconds_per_sample", "per_sample_median_s": "median_seconds_per_sample",
               "batched_s_per_sample": "batched_seconds_per_sample", "ratio": "sequential_over_batched"},
    # workflow/scripts/predict_network.py: the network predictive on the test points (Yu et al. 2024,
    # Sec. 5.4); the NUTS reference's record holds a list, one value per random subset of its draws
    "prediction": {"mse": "mse", "nll": "nll", "T": "T", "max_speed_drift": "max_speed_drift"},
    # workflow/scripts/predict_classifier.py: the classifiers' Monte Carlo predictive on the test split
    # (Bergamin et al. 2023, Sec. 5.2) and its out-of-distribution AUROC per test set (Tables 9, 10)
    "classification": {**{name: name for name in ("accuracy", "nll", "brier", "ece", "mce", "T", "max_speed_drift")},
                       **{f"auroc_{name}": f"auroc_{name}" for name in ("mnist", "fashion_mnist", "kmnist", "emnist")}},
    # workflow/scripts/time_bnn_scalability.py (Yu et al. 2024, Fig. 15): posterior h<width>_n<N>-scalability;
    # n_samples/n_failed count both protocols, the one-at-a-time failures are also a metric of their own
    "bnn_scalability_timing": {"per_sample_s": "seconds_per_sample", "batched_s_per_sample": "batched_seconds_per_sample",
                               "mean_steps_sequential": "mean_steps_sequential",
                               "mean_steps_batched": "mean_steps_batched", "failed_sequential": "failed_sequential",
                               "parameters": "parameters"},
    # workflow/scripts/bnn_classifier_{map,approximate}.py (Hartmann et al. 2026, App. D, Figs. 8-9):
    # posterior <dataset>-classifier, anchor optimum<k>; the MAP's fit and Fisher spectrum (method map)
    "bnn_classifier_map": {"logdensity": "log_posterior", "log_likelihood": "log_likelihood",
                           "training_accuracy": "training_accuracy", "converged": "converged",
                           "fisher_largest": "fisher_largest", "fisher_drop_index": "fisher_drop_index"},
    # ... and LA's / WG's mean predictive variance of p(y = 1 | x) on and off the data
    "bnn_classifier_approximation": {"variance_on_data": "variance_on_data", "variance_off_data": "variance_off_data",
                                     "off_on_ratio": "off_on_ratio", "failed_fraction": "failed_fraction",
                                     "max_residual": "max_residual"},
    # workflow/scripts/map_robustness.py (Hartmann et al. 2026, App. D, Figs. 6-7): per method the pairwise
    # push-forward W2 across optima summarised over x; per optimum (a list each: repetition = optimum) the fit
    "map_robustness": {name: name for name in ("w2_mean_over_x", "w2_variance_over_x", "w2_max_over_x",
                                               "pair_variance_mean_over_x", "w2_mean_on_data", "w2_mean_off_data",
                                               "optima_used", "failed_optima", "pairs")},
    # workflow/scripts/evaluate_pushforward.py (Hartmann et al. 2026, Fig. 5): a run's push-forward W2 to NUTS
    "pushforward_evaluation": {name: name for name in ("w2_mean_over_grid", "w2_rms_over_grid", "samples_used",
                                                       "nuts_draws")},
    # workflow/scripts/yu2023_funnel_chain.py (Yu et al. 2023, Sec. 4.2): one SGRLD chain on the funnel, W1 of
    # each marginal to exact draws and the floor (two exact sets), its cost and Monge's fallback steps
    "yu2023_funnel_chain": {name: name for name in ("w1_theta1", "w1_theta2", "floor_w1_theta1", "floor_w1_theta2",
                                                    "fallback_fraction", "seconds_per_step", "compile_s")},
    # workflow/scripts/yu2023_classifier_chain.py (Yu et al. 2023, Secs. 4.3-4.4): one chain at one grid point
    # (anchor) and seed, its final-epoch test metrics of the sample ensemble, validation LP, curvature and cost;
    # _selected (yu2023_classifier_select.py): the selected grid point's per-seed metrics (anchor "selected");
    # _equal_time (yu2023_classifier_equal_time.py, App. A.6, Tables 6-7): per sampler (per_method) the test metrics
    # at the fastest sampler's whole-run wall time, its point re-selected there (one value per seed)
    **{f"{study}_{stage}": metrics for study in ("yu2023_mnist", "yu2023_cifar") for stage, metrics in (
        ("chain", {name: name for name in ("lp", "accuracy", "ece", "confidence", "valid_lp", "curvature",
                                           "seconds_per_epoch")}),
        ("selected", {name: name for name in ("lp", "accuracy", "ece", "confidence", "curvature", "seconds_per_epoch",
                                              "learning_rate", "alpha2")}),
        ("equal_time", {name: name for name in ("lp_equal_time", "accuracy_equal_time", "epochs_in_budget")}))},
    # workflow/scripts/liu2018_blr_run.py (Liu & Zhu 2018, Fig. 1): one particle run of a panel (posterior) on its
    # data set (anchor): test accuracy at the last iteration and averaged over the recorded ones, test LL, cost
    "liu2018_blr_run": {name: name for name in ("accuracy_final", "accuracy_mean", "log_likelihood_final",
                                                "seconds_per_iteration")},
    # workflow/scripts/liu2018_sam_run.py (Liu & Zhu 2018, Fig. 2): one SAM run at one particle count (anchor n<N>):
    # test log-perplexity at the last epoch and the lowest along the run, cost per epoch, acceptance rate
    "liu2018_sam_run": {name: name for name in ("log_perplexity_final", "log_perplexity_best", "seconds_per_epoch",
                                                "acceptance_rate")},
    # workflow/scripts/reference_crosscheck.py: per backend (per_method) its Monte Carlo floor, cost and
    # diagnostics; for the pair (method numpyro_vs_stan) W1 between them, its ratio to the floor and the flag
    "reference_crosscheck": {name: name for name in ("wasserstein1", "floor_ratio", "disagrees", "reference_seconds",
                                                     "build_seconds", "max_r_hat", "min_ess_bulk", "divergences",
                                                     "passed")},
    "map_optima": {name: name for name in ("log_posterior", "converged", "grad_norm", "num_steps",
                                           "nearest_param_distance", "nearest_map_f_rms_distance")},
}

#: Sidecar key holding one record per method measured in the same process.
PER_METHOD = "per_method"

#: Method name of the Monte Carlo floor rows (defined beside the method labels, so the floor job
#: names its rows without importing pandas).
FLOOR_METHOD = labels.FLOOR_METHOD


def _key(record: Mapping, name: str, default):
    value = record.get(name, default)
    return default if value is None else value


def tidy_rows(record: Mapping, experiment: str) -> list[dict]:
    """The long rows of one sidecar.

    Parameters
    ----------
    record : mapping
        A decoded JSON sidecar with a ``stage`` of :data:`STAGE_METRICS` and the fields
        ``posterior`` and ``method`` (``anchor``, ``repetition``, ``n_samples``, ``n_failed``
        where the stage has them), or a list of per-method records under :data:`PER_METHOD`.
    experiment : str
        The experiment the run belongs to.

    Returns
    -------
    list of dict
        One row per metric field present (not null) in the record, keyed by
        :data:`TIDY_COLUMNS` (one per element of a list-valued field, repetition = index).

    Raises
    ------
    ValueError
        If the stage is unknown or a key field is missing, naming both; or a list-valued
        field is in a record that has a repetition.
    """
    stage = record.get("stage")
    if stage not in STAGE_METRICS:
        raise ValueError(f"sidecar stage {stage!r} has no tidy form; known stages: {', '.join(STAGE_METRICS)}")
    if record.get(PER_METHOD) is not None:
        shared = {key: value for key, value in record.items() if key != PER_METHOD}
        return [row for part in record[PER_METHOD] for row in tidy_rows({**shared, **part}, experiment)]
    missing = [name for name in ("posterior", "method") if record.get(name) is None]
    if missing:
        raise ValueError(f"{stage} sidecar lacks the key fields {missing}")
    n_samples = _key(record, "n_samples", _key(record, "n_batched", None))
    n_failed = _key(record, "n_failed", _key(record, "failed_batched", None))
    keys = {"experiment": experiment, "posterior": record["posterior"], "anchor": _key(record, "anchor", ""),
            "method": record["method"], "repetition": _key(record, "repetition", "")}
    rows = []
    for field, metric in STAGE_METRICS[stage].items():
        value = record.get(field)
        if value is None:
            continue
        if isinstance(value, (list, tuple)):
            if keys["repetition"] != "":
                raise ValueError(f"{stage} sidecar of {record['posterior']} {record['method']}: field {field!r} is a "
                                 f"list, but the record has repetition {keys['repetition']!r}")
            rows += [{**keys, "repetition": index, "metric": metric, "value": float(item), "n_samples": n_samples,
                      "n_failed": n_failed} for index, item in enumerate(value)]
            continue
        rows.append({**keys, "metric": metric, "value": float(value), "n_samples": n_samples, "n_failed": n_failed})
    return rows


def tidy_frame(records: Iterable[tuple[Mapping, str]]) -> pd.DataFrame:
    """Tidy table of many ``(sidecar, experiment)`` pairs, sorted by its keys and metric.

    A ``NaN`` value is kept (e.g. a distance with every sample failed): its row still carries
    the failure count, so tables can print ``n/a`` beside it.
    """
    rows = [row for record, experiment in records for row in tidy_rows(record, experiment)]
    frame = pd.DataFrame(rows, columns=list(TIDY_COLUMNS))
    return _normalised(frame)


def _normalised(frame: pd.DataFrame) -> pd.DataFrame:
    frame = frame.copy()
    for column in ("experiment", "posterior", "anchor", "method", "metric"):
        frame[column] = frame[column].fillna("").astype(str)
    frame["repetition"] = pd.to_numeric(frame["repetition"].replace("", np.nan), errors="raise").astype("Int64")
    for column in ("n_samples", "n_failed"):
        frame[column] = pd.to_numeric(frame[column], errors="raise").astype("Int64")
    frame["value"] = pd.to_numeric(frame["value"], errors="raise").astype(np.float64)
    order = ["experiment", "posterior", "anchor", "method", "repetition", "metric"]
    return frame.sort_values(order, kind="stable", na_position="first").reset_index(drop=True)


def load_tidy(paths: str | os.PathLike[str] | Sequence[str | os.PathLike[str]]) -> pd.DataFrame:
    """Read one or more tidy CSVs (``results/summary/*.csv``) into one checked frame.

    Raises
    ------
    FileNotFoundError
        Naming a file that does not exist.
    ValueError
        Naming a file whose columns are not :data:`TIDY_COLUMNS`.
    """
    paths = [paths] if isinstance(paths, (str, os.PathLike)) else list(paths)
    frames = []
    for path in map(Path, paths):
        if not path.is_file():
            raise FileNotFoundError(f"tidy results file {path} does not exist")
        frame = pd.read_csv(path, dtype={"anchor": str, "method": str, "posterior": str, "experiment": str},
                            keep_default_na=False, na_values={"value": ["", "nan", "NaN"],
                                                              "repetition": [""], "n_samples": [""],
                                                              "n_failed": [""]})
        if tuple(frame.columns) != TIDY_COLUMNS:
            raise ValueError(f"tidy results file {path}: expected columns {','.join(TIDY_COLUMNS)}; "
                             f"got {','.join(map(str, frame.columns))}")
        frames.append(frame)
    if not frames:
        return _normalised(pd.DataFrame(columns=list(TIDY_COLUMNS)))
    return _normalised(pd.concat(frames, ignore_index=True))


def wide(frame: pd.DataFrame) -> pd.DataFrame:
    """One row per run with one column per metric (plus ``n_samples`` and ``n_failed``).

    The inverse of the long form for code that wants a run's metrics side by side; the
    column names are the metric names.
    """
    keys = list(KEY_COLUMNS)
    runs = frame.groupby(keys, dropna=False, sort=True)
    # groupby + unstack keeps the runs that exist (a pivot_table keeping NaN columns would
    # form every combination of the key values); a NaN value stays NaN
    values = frame.groupby([*keys, "metric"], dropna=False, sort=True)["value"].first().unstack("metric")
    values.columns.name = None
    return values.join(runs[["n_samples", "n_failed"]].first()).reset_index()


def aggregate(frame: pd.DataFrame, by: Sequence[str], *, ddof: int = 0, statistic: str = "mean") -> pd.DataFrame:
    """Mean and spread of each metric over the runs of each group.

    Parameters
    ----------
    frame : pandas.DataFrame
        Tidy rows (:data:`TIDY_COLUMNS`, possibly with extra derived key columns).
    by : sequence of str
        Group columns; ``metric`` is always added.
    ddof : int, optional
        Delta degrees of freedom of the standard deviation (0: ``np.std``, the population
        std the papers' code prints; 1: the sample std).
    statistic : {"mean", "median"}, optional
        The central value put in column ``mean`` (``"median"``: the median over the runs, e.g.
        of timings, robust to one slow run).

    Returns
    -------
    pandas.DataFrame
        ``by + [metric]`` then ``mean``, ``std``, ``n_runs``, ``n_failed`` and ``n_samples``
        (summed over the group's runs). A NaN in any run (a distance without a successful
        sample) propagates to ``mean`` and ``std``: it is shown, never skipped.
    """
    if statistic not in ("mean", "median"):
        raise ValueError(f"aggregate: statistic must be 'mean' or 'median'; got {statistic!r}")
    center = np.median if statistic == "median" else np.mean
    keys = [*by, "metric"] if "metric" not in by else list(by)
    groups = frame.groupby(keys, dropna=False, sort=False)

    def summarise(values: pd.Series) -> pd.Series:
        array = values.to_numpy(dtype=np.float64)
        mean = float(center(array)) if len(array) else math.nan
        std = float(np.std(array, ddof=ddof)) if len(array) > ddof else math.nan
        return pd.Series({"mean": mean, "std": std, "n_runs": len(array)})

    stats = groups["value"].apply(summarise).unstack()
    counts = groups[["n_failed", "n_samples"]].sum(min_count=1)
    result = stats.join(counts).reset_index()
    result["n_runs"] = result["n_runs"].astype(int)
    return result
