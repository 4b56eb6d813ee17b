"""Seconds per iteration of RSVGD vs SVGD on Bayesian logistic regression, and per epoch on the SAM.

Liu & Zhu (2018) report no timings; their notes' complexity (Sec. 1.4, 5.3) says RSVGD on BLR costs
``O(N D m^2 + N m^3 + N^2 m^2)`` per iteration against SVGD's ``O(N D m + N^2 m)``. Measured here in
one process: one compiled iteration of each on German credit (D = 800 training rows, m = 25) and on a
Covertype-shaped synthetic set (rows x 55 columns; the file itself is not mirrored), 100 particles; the
first call (compilation) is dropped and the median of ``--repeats`` further calls is reported, with
RSVGD's ratio to SVGD (the baseline runs first and last, so a drift of the machine's load shows). On
the SAM: one epoch of RSVGD (the Fisher-identity gradient of every particle on every training document
with the inner simplex sampler, and the update) at ``--particles``, and the gradient of one particle on
all 1,666 documents, the unit the notes' cost model counts. Speed is measured here, never asserted.

Usage::

    .venv/bin/python benchmarks/bench_rsvgd.py [--repeats 5] [--covertype-rows 20000] [--particles 20]
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np

from geobayes.data.liu2018_blr import prepare_split
from geobayes.data.news20_tfidf import prepare_sam_documents
from geobayes.io import provenance, save_json
from geobayes.pipeline.liu2018_blr_run import blr_score
from geobayes.pipeline.liu2018_sam_run import initial_topics
from geobayes.sam import SamSettings, corpus_mean_direction, log_posterior_gradient
from geobayes.spheres import rsvgd_update
from geobayes.svgd import DEFAULT_BANDWIDTHS, blr_metric_quantities, rsvgd_field, svgd_field

jax.config.update("jax_enable_x64", True)
REPO = Path(__file__).resolve().parents[1]
ALPHA = 0.01


def median_seconds(function, argument, repeats: int) -> list[float]:
    """Wall seconds of ``repeats`` calls after one compiling call."""
    jax.block_until_ready(function(argument))
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        jax.block_until_ready(function(argument))
        times.append(time.perf_counter() - start)
    return times


def blr_iteration_seconds(X: np.ndarray, y: np.ndarray, particles: int, repeats: int) -> dict[str, list[float]]:
    """SVGD, RSVGD, SVGD again: seconds of one direction evaluation + step on (X, y)."""
    X, y = jnp.asarray(X), jnp.asarray(y)
    start = jnp.sqrt(ALPHA) * jax.random.normal(jax.random.PRNGKey(0), (particles, X.shape[1]))

    def score(w):
        return blr_score(w, X, y, ALPHA)

    fields = {"svgd": svgd_field(score, DEFAULT_BANDWIDTHS),
              "rsvgd": rsvgd_field(score, lambda w: blr_metric_quantities(w, X, ALPHA), DEFAULT_BANDWIDTHS, "code")}
    runs = {}
    for name in ("svgd", "rsvgd", "svgd"):
        key = name if name not in runs else f"{name}_again"
        runs[key] = median_seconds(jax.jit(lambda x, f=fields[name]: x + 1e-3 * f(x)), start, repeats)
        print(f"{key}: {[round(t * 1e3, 2) for t in runs[key]]} ms", flush=True)
    return runs


def summary(runs: dict[str, list[float]]) -> dict:
    baseline = statistics.median(runs["svgd"] + runs["svgd_again"])
    return {"seconds": {k: statistics.median(v) for k, v in runs.items()},
            "rsvgd_over_svgd": statistics.median(runs["rsvgd"]) / baseline, "times": runs}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--covertype-rows", type=int, default=20000)
    parser.add_argument("--blr-particles", type=int, default=100)
    parser.add_argument("--particles", type=int, default=20, help="SAM particles")
    parser.add_argument("--mirror", default=os.environ.get("GEOBAYES_DATA_MIRROR", str(REPO.parent / "shared" / "data")))
    parser.add_argument("--output", default=str(REPO / "benchmarks" / "results" / "rsvgd.json"))
    args = parser.parse_args()
    mirror = Path(args.mirror)
    german = prepare_split("german", mirror / "logreg" / "german.npy", split=0)
    rng = np.random.default_rng(0)
    X_cov = np.column_stack([rng.uniform(size=(args.covertype_rows, 54)), np.ones(args.covertype_rows)])
    y_cov = (rng.uniform(size=args.covertype_rows) < 0.5).astype(float)
    record = {"german": summary(blr_iteration_seconds(german["X_train"], german["y_train"], args.blr_particles,
                                                      args.repeats)),
              "covertype_shaped": summary(blr_iteration_seconds(X_cov, y_cov, args.blr_particles, args.repeats))}
    documents = prepare_sam_documents(mirror / "20news_diff" / "diff.train.tfidf1.data",
                                      mirror / "20news_diff" / "diff.test.tfidf1.data", n_test=10)
    train = jnp.asarray(documents["train_documents"])
    corpus_mean, settings = corpus_mean_direction(train), SamSettings()
    topics = initial_topics(jax.random.PRNGKey(0), corpus_mean, settings.n_topics, args.particles)

    @jax.jit
    def sam_epoch(topics):
        keys = jax.random.split(jax.random.PRNGKey(1), topics.shape[0])
        grads = jax.vmap(lambda k, b: log_posterior_gradient(k, b, train, corpus_mean, settings).gradient)(keys, topics)
        return grads

    one = jax.jit(lambda b: log_posterior_gradient(jax.random.PRNGKey(2), b, train, corpus_mean, settings).gradient)
    gradient_times = median_seconds(sam_epoch, topics, args.repeats)
    grads = sam_epoch(topics)
    update_times = median_seconds(lambda t: rsvgd_update(t, grads, 1e-6, "median"), topics, args.repeats)
    record["sam"] = {"particles": args.particles, "documents": int(train.shape[0]),
                     "gradients_seconds": statistics.median(gradient_times),
                     "rsvgd_update_seconds": statistics.median(update_times),
                     "one_particle_gradient_seconds": statistics.median(median_seconds(one, topics[0], args.repeats)),
                     "times": {"gradients": gradient_times, "update": update_times}}
    record.update({"load_average": os.getloadavg(), **provenance()})
    save_json(args.output, record)
    print({k: (v["rsvgd_over_svgd"] if "rsvgd_over_svgd" in v else v) for k, v in record.items()
           if k in ("german", "covertype_shaped", "sam")})


if __name__ == "__main__":
    main()
