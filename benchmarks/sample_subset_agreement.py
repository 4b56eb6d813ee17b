"""Would fewer samples tell the same story? Every table of some experiments, from all draws and from the first k.

Issue 16 lets the quick scale shrink an experiment only where "the smaller setting gives the same qualitative
finding (the paper's ordering of methods)". An approximation's draws are independent, so the first k draws of
each repetition are a sample of k from the same approximation: what a run at ``samples: k`` would draw, up to
which k draws (the keys of a smaller batch are not the first rows of a larger one's). This copies a finished run's
tree, cuts every repetition's draws of the named experiments to its first k (``results/approximation/<posterior>/
<anchor>/<method>/seed<r>/samples.npz``; the record beside it recounted by
:func:`geobayes.methods.base.summarise_draws`: failures, steps, ``T``), lets Snakemake rerun what depends on them
(``--rerun-triggers mtime``: the evaluations, predictions, summaries, tables; nothing upstream), and compares
every table of those experiments between the two trees (``table_agreement.compare_tables``: paper
comparison, bold cells, claims). To compare the trees again, or a tree rerun at the smaller setting itself, use
``table_agreement.py``.

What it cannot show: the cost of the smaller run (its approximation jobs do not rerun; their seconds per sample are
the full run's) and effects of the sample count on a method itself (a particle method's particles interact, so
``svgd`` and ``rsvgd`` are never cut); the floors and NUTS references keep the full run's sizes.

Usage::

    python benchmarks/sample_subset_agreement.py --tree QUICK_RUN_TREE --into /tmp/subset_tree \\
        --samples bnn_yu=100 bergamin_uci=15 --output benchmarks/results/sample_subset_agreement.json
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
from table_agreement import compare_tables, summaries

from geobayes.io import load_json, provenance, save_json, save_npz
from geobayes.methods.base import ApproximateDraws, summarise_draws

PARTICLE_METHODS = ("svgd", "rsvgd")


def parse_args(argv=None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tree", type=Path, required=True, help="a finished run's working directory")
    parser.add_argument("--into", type=Path, required=True, help="where the cut copy goes (must not exist)")
    parser.add_argument("--samples", nargs="+", required=True, metavar="EXPERIMENT=K",
                        help="the draws each repetition of an experiment keeps")
    parser.add_argument("--config", default="config/quick.yaml", help="the run's config, relative to the tree")
    parser.add_argument("--cores", type=int, default=2)
    parser.add_argument("--output", type=Path, required=True, help="JSON record")
    return parser.parse_args(argv)


def parse_cuts(pairs: list[str]) -> dict[str, int]:
    """``["bnn_yu=100"]`` -> ``{"bnn_yu": 100}``; a malformed pair is named in one line."""
    cuts = {}
    for pair in pairs:
        name, _, k = pair.partition("=")
        if not name or not k.isdigit() or int(k) < 1:
            raise SystemExit(f"sample_subset_agreement: --samples {pair!r}: expected EXPERIMENT=K with K >= 1")
        cuts[name] = int(k)
    return cuts


def cut_draws(npz: Path, k: int) -> int | None:
    """Keep the first ``k`` draws of one repetition (``samples.npz`` and its ``samples.json``); the old count.

    None where the repetition has ``k`` draws or fewer (left as it is). Every per-draw array is cut; the
    record's counts (``n_samples``, ``n_failed``, steps, ``T``, result codes, drift, residual) are recounted
    by the pipeline's own :func:`summarise_draws`, with ``T``'s evaluations per step read off the old record.
    """
    with np.load(npz) as stored:
        arrays = {name: stored[name] for name in stored.files}
    n = arrays["theta"].shape[0]
    if n <= k:
        return None
    cut = {name: (a[:k] if name != "mode" and a.ndim and a.shape[0] == n else a) for name, a in arrays.items()}
    record_path = npz.with_suffix(".json")
    record = load_json(record_path)
    per_step = round(record["T"] / record["mean_steps"]) if record.get("mean_steps") else 0
    draws = ApproximateDraws(**{field: cut.get(field) for field in ApproximateDraws._fields})
    record.update(summarise_draws(draws, per_step), cut_from=n)
    save_npz(npz, **cut)
    save_json(record_path, record)
    return n


def cut_tree(into: Path, cuts: dict[str, int], posteriors: dict[str, list[str]]) -> list[dict]:
    """Cut the draws of every posterior of each experiment in ``into``; one row per repetition cut."""
    rows = []
    for experiment, k in cuts.items():
        for posterior in posteriors[experiment]:
            for npz in sorted((into / "results" / "approximation" / posterior).glob("*/*/seed*/samples.npz")):
                method = npz.parents[1].name
                if method in PARTICLE_METHODS:
                    continue
                n = cut_draws(npz, k)
                if n is not None:
                    rows.append({"experiment": experiment, "posterior": posterior, "method": method,
                                 "repetition": npz.parent.name, "from": n, "to": k})
    return rows


def cut_and_rerun(args, cuts: dict[str, int], full) -> tuple[list[dict], float]:
    """Copy ``--tree`` to ``--into``, cut its draws, rerun what depends on them; the rows cut and the seconds."""
    if args.into.exists():
        raise SystemExit(f"sample_subset_agreement: --into {args.into} exists (it must be a new directory)")
    posteriors = {e: sorted(full.loc[full["experiment"] == e, "posterior"].unique()) for e in cuts}
    empty = [e for e, names in posteriors.items() if not names]
    if empty:
        raise SystemExit(f"sample_subset_agreement: no results of {', '.join(empty)} in {args.tree}")
    shutil.copytree(args.tree, args.into, symlinks=True, ignore=shutil.ignore_patterns("locks"))
    rows = cut_tree(args.into, cuts, posteriors)
    if not rows:
        shutil.rmtree(args.into)
        raise SystemExit(f"sample_subset_agreement: no repetition of {', '.join(cuts)} has more draws than asked")
    print(f"cut {len(rows)} repetitions; rerunning what depends on them", flush=True)
    snakemake = str(Path(sys.executable).with_name("snakemake"))
    command = [snakemake, "--cores", str(args.cores), "--configfile", args.config, "--rerun-triggers", "mtime",
               "--quiet", "--keep-going"]
    start = time.perf_counter()
    with (args.into / "sample_subset_rerun.log").open("w") as log:
        done = subprocess.run(command, cwd=args.into, stdout=log, stderr=subprocess.STDOUT)
    rerun_s = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"sample_subset_agreement: the rerun in {args.into} failed (exit {done.returncode}); "
                         f"see {args.into / 'sample_subset_rerun.log'}")
    return rows, rerun_s


def main(argv=None) -> int:
    args = parse_args(argv)
    cuts = parse_cuts(args.samples)
    full = summaries(args.tree, cuts, "sample_subset_agreement")
    rows, rerun_s = cut_and_rerun(args, cuts, full)
    fewer = summaries(args.into, cuts, "sample_subset_agreement")
    record = {"tree": str(args.tree), "into": str(args.into), "samples": cuts, "repetitions_cut": len(rows),
              "cut": rows, "rerun_s": rerun_s,
              **compare_tables(full, fewer, list(cuts), ("all_samples", "first_k_samples"))}
    record["provenance"] = provenance()
    save_json(args.output, record)
    return 0


if __name__ == "__main__":
    sys.exit(main())
