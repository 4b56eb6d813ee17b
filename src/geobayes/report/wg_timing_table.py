"""Seconds per sample of WG, LA, RLA-F and NUTS at equal sample counts (Hartmann et al. 2026, speed claim).

Hartmann et al. (2026) claim the closed-form wrapped Gaussian (WG) is "orders of magnitude
faster" than the ODE-based Riemannian Laplace approximations, but time it only against NUTS
(notes Sec. 4, claim 1, and Sec. 6.2, item 13: USPS 17 min vs about 3 h, BNN about 4 h vs
19 h). Rule ``time_wg`` measures, in one process on one machine and for the same number of
samples N, the per-sample seconds of WG, LA (``ela``), RLA-F (Yu et al. 2024, the ODE-based
Riemannian Laplace approximation) and one NUTS chain. This module turns those records
(``results/timing_wg/<posterior>.json``) into one row per posterior with the ratios
WG/LA, WG/RLA-F and WG/NUTS (< 1: WG faster) and the failed-sample counts.

Approximation seconds are the median batched call drawing N samples after a compile call,
divided by N (fit excluded); NUTS seconds are one chain's wall clock (warm-up + N draws,
compilation included) divided by N.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Iterable, Mapping

import pandas as pd

from geobayes.methods.labels import method_label

__all__ = ["TIMED_METHODS", "WG_TIMING_COLUMNS", "RATIO_RTOL", "wg_timing_frame", "wg_timing_table_latex"]

#: Approximation methods a record may time, in column order.
TIMED_METHODS = ("wg", "ela", "rla_f")

#: Relative tolerance between a record's stored ratio and the ratio of its per-sample seconds.
RATIO_RTOL = 1e-6

#: Columns of :func:`wg_timing_frame` (and of ``tables/wg_timing.csv``).
WG_TIMING_COLUMNS = (
    "posterior", "dim", "samples",
    "wg_per_sample_s", "ela_per_sample_s", "rla_f_per_sample_s", "nuts_per_sample_s",
    "ratio_wg_ela", "ratio_wg_rla_f", "ratio_wg_nuts",
    "wg_failed", "ela_failed", "rla_f_failed", "nuts_divergences",
    "wg_fit_s", "ela_fit_s", "rla_f_fit_s", "nuts_seconds", "nuts_warmup",
)

_RATIO_KEYS = {"ela": "wg/ela", "rla_f": "wg/rla_f", "nuts": "wg/nuts"}


def _positive(value: object, where: str) -> float:
    try:
        number = float(value)
    except (TypeError, ValueError):
        raise ValueError(f"{where} must be a positive number; got {value!r}") from None
    if not (math.isfinite(number) and number > 0):
        raise ValueError(f"{where} must be a positive number; got {value!r}")
    return number


def _count(value: object, where: str) -> int:
    if (isinstance(value, bool) or not isinstance(value, numbers.Real) or not math.isfinite(value)
            or value != int(value) or value < 0):
        raise ValueError(f"{where} must be a non-negative integer count; got {value!r}")
    return int(value)


def _row(record: Mapping) -> dict:
    name = record.get("posterior", "?")
    missing = [k for k in ("posterior", "dim", "samples", "methods", "nuts") if k not in record]
    if missing:
        raise ValueError(f"timing record of {name} (results/timing_wg/{name}.json) lacks keys {missing}")
    where = f"results/timing_wg/{name}.json"
    methods = record["methods"]
    if not isinstance(methods, Mapping) or "wg" not in methods:
        found = sorted(methods) if isinstance(methods, Mapping) else methods
        raise ValueError(f"{where}: 'methods' must be a mapping holding 'wg'; got {found!r}")
    unknown = sorted(set(methods) - set(TIMED_METHODS))
    if unknown:
        raise ValueError(f"{where}: 'methods' holds {unknown}; known {list(TIMED_METHODS)}")
    row = {"posterior": str(name), "dim": _count(record["dim"], f"{where}: 'dim'"),
           "samples": _count(record["samples"], f"{where}: 'samples'")}
    for method in TIMED_METHODS:
        entry = methods.get(method)
        if entry is None:
            row.update({f"{method}_per_sample_s": math.nan, f"{method}_failed": pd.NA, f"{method}_fit_s": math.nan})
            continue
        absent = [k for k in ("per_sample_s", "fit_s", "n_failed") if k not in entry]
        if absent:
            raise ValueError(f"{where}: methods.{method} lacks {absent}")
        row[f"{method}_per_sample_s"] = _positive(entry["per_sample_s"], f"{where}: methods.{method}.per_sample_s")
        row[f"{method}_fit_s"] = float(entry["fit_s"])
        row[f"{method}_failed"] = _count(entry["n_failed"], f"{where}: methods.{method}.n_failed")
    nuts = record["nuts"]
    absent = [k for k in ("per_sample_s", "seconds", "warmup", "divergences") if k not in nuts]
    if absent:
        raise ValueError(f"{where}: 'nuts' lacks {absent}")
    row["nuts_per_sample_s"] = _positive(nuts["per_sample_s"], f"{where}: nuts.per_sample_s")
    row["nuts_seconds"] = _positive(nuts["seconds"], f"{where}: nuts.seconds")
    row["nuts_warmup"] = _count(nuts["warmup"], f"{where}: nuts.warmup")
    row["nuts_divergences"] = _count(nuts["divergences"], f"{where}: nuts.divergences")
    stored = record.get("ratios", {}) or {}
    for other, key in _RATIO_KEYS.items():
        ratio = row["wg_per_sample_s"] / row[f"{other}_per_sample_s"]
        if key in stored and math.isfinite(ratio):
            if not math.isclose(float(stored[key]), ratio, rel_tol=RATIO_RTOL):
                raise ValueError(f"{where}: ratios['{key}'] = {stored[key]!r} differs from the per-sample seconds' "
                                 f"ratio {ratio!r} (wg {row['wg_per_sample_s']!r} / {other} "
                                 f"{row[f'{other}_per_sample_s']!r})")
        row[f"ratio_wg_{other}"] = ratio
    return row


def wg_timing_frame(records: Iterable[Mapping]) -> pd.DataFrame:
    """One row per timed posterior: seconds per sample, WG ratios and failure counts.

    Parameters
    ----------
    records : iterable of mapping
        Decoded ``results/timing_wg/<posterior>.json`` records (keys ``posterior``, ``dim``,
        ``samples``, ``methods`` (``wg`` required; ``ela``, ``rla_f`` optional, each with
        ``fit_s``, ``per_sample_s``, ``n_failed``), ``nuts`` (``seconds``, ``per_sample_s``,
        ``warmup``, ``divergences``) and optionally ``ratios``), in the order to show.

    Returns
    -------
    pandas.DataFrame
        Columns :data:`WG_TIMING_COLUMNS`. ``ratio_wg_<m>`` is ``wg_per_sample_s /
        <m>_per_sample_s`` (< 1: WG faster), NaN where ``m`` was not timed (its failed
        count is then missing too).

    Raises
    ------
    ValueError
        If there are no records, a posterior repeats, a key is missing, a time is not a
        positive number, a count is not a non-negative integer, a method is unknown, or a
        stored ratio disagrees with the per-sample seconds (relative tolerance
        :data:`RATIO_RTOL`). The message names the JSON file.
    """
    rows = [_row(record) for record in records]
    if not rows:
        raise ValueError("no WG timing records (results/timing_wg/*.json)")
    names = [r["posterior"] for r in rows]
    repeated = sorted({n for n in names if names.count(n) > 1})
    if repeated:
        raise ValueError(f"WG timing records repeat posteriors {repeated}")
    frame = pd.DataFrame(rows)
    for method in TIMED_METHODS:
        frame[f"{method}_failed"] = frame[f"{method}_failed"].astype("Int64")
    return frame[list(WG_TIMING_COLUMNS)].reset_index(drop=True)


def _seconds(value: float) -> str:
    if not math.isfinite(value):
        return "--"
    return f"{value:.2e}" if value < 1e-3 else f"{value:.4f}"


def _ratio(value: float) -> str:
    if not math.isfinite(value):
        return "--"
    return f"{value:.3g}"


def _failed(value: object) -> str:
    return "--" if pd.isna(value) else f"{int(value):,}"


def wg_timing_table_latex(frame: pd.DataFrame, *, label: str = "tab:wg_timing") -> str:
    """Booktabs LaTeX: per posterior, seconds per sample of WG, LA, RLA-F and NUTS and the WG ratios.

    Parameters
    ----------
    frame : pandas.DataFrame
        Output of :func:`wg_timing_frame`.
    label : str, default "tab:wg_timing"
        LaTeX label.

    Returns
    -------
    str
        The ``table`` environment, ending with a newline. Failed samples of WG, LA and
        RLA-F and NUTS divergences have their own columns.
    """
    missing = [c for c in WG_TIMING_COLUMNS if c not in frame.columns]
    if missing:
        raise ValueError(f"WG timing table lacks columns {missing}; has {list(frame.columns)}")
    labels = {m: method_label(m) if m != "ela" else "LA" for m in TIMED_METHODS}
    lines = [
        "\\begin{table}[t]", "\\centering", "\\footnotesize",
        "\\caption{Seconds per sample at equal sample counts $N$, measured in one process on one machine: WG, LA "
        "and RLA-F batched (median over repeats of one call drawing $N$ samples, after compilation; fit "
        "excluded), NUTS one chain (warm-up and $N$ draws, compilation included) divided by $N$. Ratios are WG's "
        "seconds over the other's ($<1$: WG faster). Hartmann et al.\\ (2026) time WG only against NUTS, "
        "on other models (their runtimes are quoted, cited, in the reproduction report). Failed: samples whose "
        "solve did not converge (left out of $W_2$); div.: NUTS divergences.}",
        f"\\label{{{label}}}", "\\begin{tabular}{lrrrrrrrrrrrrr}", "\\toprule",
        " & & & \\multicolumn{4}{c}{seconds per sample} & \\multicolumn{3}{c}{WG / other} & "
        "\\multicolumn{3}{c}{failed} & \\\\",
        "\\cmidrule(lr){4-7} \\cmidrule(lr){8-10} \\cmidrule(lr){11-13}",
        "posterior & $D$ & $N$ & " + " & ".join(labels[m] for m in TIMED_METHODS) + " & NUTS & "
        + " & ".join(labels[m] for m in ("ela", "rla_f")) + " & NUTS & "
        + " & ".join(labels[m] for m in TIMED_METHODS) + " & div. \\\\",
        "\\midrule",
    ]
    for r in frame.itertuples(index=False):
        name = str(r.posterior).replace("_", "\\_")
        cells = [name, f"{int(r.dim)}", f"{int(r.samples):,}",
                 *(_seconds(getattr(r, f"{m}_per_sample_s")) for m in TIMED_METHODS), _seconds(r.nuts_per_sample_s),
                 _ratio(r.ratio_wg_ela), _ratio(r.ratio_wg_rla_f), _ratio(r.ratio_wg_nuts),
                 *(_failed(getattr(r, f"{m}_failed")) for m in TIMED_METHODS), f"{int(r.nuts_divergences):,}"]
        lines.append(" & ".join(cells) + " \\\\")
    lines += ["\\bottomrule", "\\end{tabular}", "\\end{table}"]
    return "\n".join(lines) + "\n"
