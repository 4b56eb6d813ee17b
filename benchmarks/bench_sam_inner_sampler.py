"""The SAM's inner simplex sampler with the reflecting flow's first move peeled out of its loop, against the loop.

Liu & Zhu's (2018) SAM gradient (Sec. 5.2, Fisher's identity) runs the geodesic Monte Carlo of the topic
proportions (:mod:`geobayes.sam.topic_proportions`) for every document at every gradient: burn-in + kept
MH iterations of ``L`` leapfrog steps, each a straight-line flow reflected off the simplex's faces in a
``while_loop``. At the SAM's step size (1e-6) a flow almost never needs a second move, so the loop ran
one iteration per flow and its machinery (under ``vmap``: the condition over every lane, the selects)
cost about a third of the sampler. :func:`geobayes.sam.topic_proportions.simplex_geodesic_flow` now makes
the first move unconditionally and loops only for further reflections.

Measured here in one process on the quick run's SGGMCb-par shape (``--chains`` particles, a batch of
``--batch`` training documents, the quick config's inner settings): the sampler with the flow as it was
(the loop from the start, defined below as the baseline) and as it is, each compiled once, then
``--repeats`` interleaved calls; medians, the ratio, and whether the draws are bit-identical.
Speed is measured here, never asserted.

Usage::

    .venv/bin/python benchmarks/bench_sam_inner_sampler.py --documents <prepared news20_diff.npz> [--repeats 6]
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np
import yaml

from geobayes.data.prepared import load_prepared
from geobayes.io import provenance, save_json
from geobayes.pipeline.liu2018_sam_run import initial_topics
from geobayes.sam import SamSettings, corpus_mean_direction
from geobayes.sam import topic_proportions

jax.config.update("jax_enable_x64", True)
REPO = Path(__file__).resolve().parents[1]


def looped_flow(theta, velocity, step: float):
    """The reflecting flow as it was: every move, the first included, inside the ``while_loop``."""
    size = theta.shape[-1]
    tiny = jnp.finfo(jnp.float64).tiny

    def cond(state):
        _, _, remaining, count = state
        return (remaining > tiny) & (count < topic_proportions.MAX_REFLECTIONS)

    def body(state):
        point, vel, remaining, count = state
        hit_times = jnp.where(vel < 0, point / -jnp.where(vel < 0, vel, -1.0), jnp.inf)
        j = jnp.argmin(hit_times)
        move = jnp.minimum(remaining, hit_times[j])
        hits = hit_times[j] <= remaining
        point = point + move * vel
        point = jnp.where(hits, point.at[j].set(0.0), point)
        remaining = remaining - move
        shift = (size * vel[j] - jnp.sum(vel)) * 2.0 / (size * (size - 1.0))
        reflected = (vel + shift).at[j].add(-size * shift)
        vel = jnp.where(hits & (remaining > tiny), reflected, vel)
        remaining = jnp.where(hits, remaining, 0.0)
        return point, vel, remaining, count + hits.astype(jnp.int32)

    point, vel, _, _ = jax.lax.while_loop(
        cond, body, (theta, velocity, jnp.asarray(step, theta.dtype), jnp.asarray(0, jnp.int32)))
    return point, vel


def sampler(flow, train, settings: SamSettings, chains: int):
    """Jitted ``(key, topics) -> samples`` of every chain's documents with ``flow`` as the geodesic flow."""
    def call(key, topics):
        def one(k, beta):
            return topic_proportions.sample_topic_proportions(k, beta.T @ beta, train @ beta, settings).samples
        return jax.vmap(one)(jax.random.split(key, chains), topics)

    def traced(key, topics):  # the module's flow is looked up while tracing, so swap it for the trace
        saved = topic_proportions.simplex_geodesic_flow
        topic_proportions.simplex_geodesic_flow = flow
        try:
            return call(key, topics)
        finally:
            topic_proportions.simplex_geodesic_flow = saved

    return jax.jit(traced)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--documents", type=Path, required=True, help="prepared liu2018_sam news20_diff.npz")
    parser.add_argument("--config", type=Path, default=REPO / "config" / "quick.yaml")
    parser.add_argument("--sampler", default="sggmcb_par", help="entry of experiments.liu2018_sam.samplers")
    parser.add_argument("--chains", type=int, default=16)
    parser.add_argument("--repeats", type=int, default=6)
    parser.add_argument("--output", type=Path, default=REPO / "benchmarks" / "results" / "sam_inner_sampler.json")
    args = parser.parse_args()

    experiment = yaml.safe_load(args.config.read_text())["experiments"]["liu2018_sam"]
    method = experiment["samplers"][args.sampler]
    settings = SamSettings(n_topics=experiment["topics"], **experiment["model"],
                           inner_burn_in=method["inner"]["burn_in"], inner_kept=method["inner"]["kept"])
    arrays = load_prepared(args.documents, "liu2018_sam")
    train_all = jnp.asarray(arrays["train_documents"])
    batch = method["batch_size"] or train_all.shape[0]
    train = train_all[:batch]
    key = jax.random.PRNGKey(0)
    topics = initial_topics(key, corpus_mean_direction(train_all), settings.n_topics, args.chains)

    variants = {"looped (before)": sampler(looped_flow, train, settings, args.chains),
                "peeled (now)": sampler(topic_proportions.simplex_geodesic_flow, train, settings, args.chains)}
    draws = {name: np.asarray(function(key, topics)) for name, function in variants.items()}
    seconds = {name: [] for name in variants}
    for repeat in range(args.repeats):
        for name, function in variants.items():
            start = time.perf_counter()
            jax.block_until_ready(function(jax.random.fold_in(key, repeat + 1), topics))
            seconds[name].append(time.perf_counter() - start)
    medians = {name: statistics.median(values) for name, values in seconds.items()}
    record = {
        "sampler": args.sampler, "chains": args.chains, "documents": int(train.shape[0]),
        "inner": {"burn_in": settings.inner_burn_in, "kept": settings.inner_kept,
                  "leapfrog_steps": settings.inner_leapfrog_steps, "step_size": settings.inner_step_size},
        "seconds": seconds, "median_s": medians,
        "ratio_before_over_now": medians["looped (before)"] / medians["peeled (now)"],
        "bit_identical": bool(np.array_equal(draws["looped (before)"], draws["peeled (now)"])),
        "provenance": provenance(),
    }
    save_json(args.output, record)
    print({key: record[key] for key in ("median_s", "ratio_before_over_now", "bit_identical")})


if __name__ == "__main__":
    main()
