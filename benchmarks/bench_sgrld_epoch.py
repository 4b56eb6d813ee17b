"""Seconds per epoch of Yu et al.'s (2023) five SGRLD samplers on MNIST, and their ratios to SGLD.

The paper (Table 2) times 3 runs x 20 epochs on one CPU core with minimal workload and reports
seconds per epoch; its claim is that Shampoo costs 1.3-2.4 times SGLD (Identity) per epoch and
the other metrics 1.0-1.5 times. Here, in one process and on the same data: the 784-N-N-10 ReLU
network with the horseshoe prior on the 50,000 training images (batch 100, 500 steps an epoch),
each sampler at Table 4's learning rate for N = 400, one compiled epoch per call; the first call
(compilation) is dropped and the median of ``--epochs`` further epochs is reported, with each
sampler's ratio to Identity measured in the same process (the baseline runs first and last, so a
drift of the machine's load shows). Evaluation is not timed (as the paper). Speed is measured
here, never asserted in tests.

With ``--dtypes float64 float32`` each precision is timed in turn in the same process
(``geobayes.floating_point``, config ``experiments.yu2023_mnist.dtype``), with the speed-up of each
over the first.

Usage::

    .venv/bin/python benchmarks/bench_sgrld_epoch.py [--width 400] [--epochs 3] [--train 50000]
    .venv/bin/python benchmarks/bench_sgrld_epoch.py --dtypes float64 float32 --output benchmarks/results/sgrld_epoch_float32.json
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from pathlib import Path

import jax
import jax.numpy as jnp

from geobayes.data.mnist_yu2023 import read_mnist_yu2023
from geobayes.floating_point import FLOAT_DTYPES, floating_point
from geobayes.io import provenance, save_json
from geobayes.networks import dense_relu_classifier as network
from geobayes.networks.bnn_priors import HorseshoePrior
from geobayes.sgmcmc.driver import run_chain
from geobayes.sgmcmc.gradient_estimators import minibatch_potential_gradient
from geobayes.sgmcmc.registry import build_preconditioner
from geobayes.sgmcmc.sgrld import sgrld

jax.config.update("jax_enable_x64", True)
REPO = Path(__file__).resolve().parents[1]
#: Table 4, N = 400, horseshoe (Monge with alpha^2 = 1.25); the code's other settings (notes Sec. 2.8).
SAMPLERS = {"identity": (0.25, {}), "wenzel": (0.75, {}), "rmsprop": (5e-4, {}), "monge": (0.25, {"alpha2": 1.25}),
            "shampoo": (5e-3, {})}


def epoch_seconds(name: str, train, position, gradient, epochs: int) -> list[float]:
    """Wall seconds of ``epochs`` epochs of one sampler after one compiling epoch."""
    learning_rate, settings = SAMPLERS[name]
    algorithm = sgrld(build_preconditioner(name, settings), learning_rate, train[0].shape[0])

    @jax.jit
    def epoch(key, state):
        state, _, _ = run_chain(key, algorithm.step, state, gradient, num_epochs=1, data=train, batch_size=100,
                                thinning=100, end_epoch=algorithm.end_epoch)
        return state

    state = jax.block_until_ready(epoch(jax.random.PRNGKey(0), algorithm.init(position)))
    times = []
    for e in range(epochs):
        start = time.perf_counter()
        state = jax.block_until_ready(epoch(jax.random.PRNGKey(e + 1), state))
        times.append(time.perf_counter() - start)
    return times


def sampler_epochs(split, width: int, epochs: int) -> dict[str, list[float]]:
    """Every sampler's epoch times (Identity first and last) in the current floating-point precision."""
    train = (jnp.asarray(split["X_train"]), jnp.asarray(split["y_train"]))
    prior = HorseshoePrior()
    position = prior.init_position(network.init_parameters(jax.random.PRNGKey(0), network.mnist_widths(width)))

    def log_likelihood(position, data):
        return network.log_likelihoods(prior.network_parameters(position), *data)

    gradient = minibatch_potential_gradient(log_likelihood, prior.log_prior, train[0].shape[0])
    runs = {}
    for name in ["identity", "wenzel", "rmsprop", "monge", "shampoo", "identity"]:
        key = name if name not in runs else f"{name}_again"
        runs[key] = epoch_seconds(name, train, position, gradient, epochs)
        print(f"{jnp.zeros(()).dtype} {key}: {[round(t, 2) for t in runs[key]]} s per epoch", flush=True)
    return runs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--width", type=int, default=400)
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--train", type=int, default=None, help="training images (default: all 50,000)")
    parser.add_argument("--dtypes", nargs="+", choices=FLOAT_DTYPES, default=["float64"],
                        help="precisions timed one after another in this process (config experiments.yu2023_mnist.dtype)")
    parser.add_argument("--mirror", default=os.environ.get("GEOBAYES_DATA_MIRROR", str(REPO.parent / "shared" / "data")))
    parser.add_argument("--output", default=str(REPO / "benchmarks" / "results" / "sgrld_epoch.json"))
    args = parser.parse_args()
    split = read_mnist_yu2023(Path(args.mirror) / "mnist", n_train=args.train, n_valid=100, n_test=100)
    by_dtype = {}
    for dtype in args.dtypes:
        with floating_point(dtype):
            runs = sampler_epochs(split, args.width, args.epochs)
        baseline = statistics.median(runs["identity"] + runs["identity_again"])
        medians = {name: statistics.median(times) for name, times in runs.items()}
        by_dtype[dtype] = {"seconds_per_epoch": medians, "epoch_times": runs,
                           "ratio_to_identity": {name: medians[name] / baseline for name in SAMPLERS}}
        print(dtype, {name: round(r, 2) for name, r in by_dtype[dtype]["ratio_to_identity"].items()})
    train = len(split["X_train"])
    record = {"width": args.width, "train": train, "steps_per_epoch": -(-train // 100), "epochs_timed": args.epochs,
              "dtype": args.dtypes[0], **by_dtype[args.dtypes[0]], "load_average": os.getloadavg(), **provenance()}
    if len(args.dtypes) > 1:
        first, *others = args.dtypes
        record["by_dtype"] = by_dtype
        record[f"speedup_over_{first}"] = {
            dtype: {name: by_dtype[first]["seconds_per_epoch"][name] / by_dtype[dtype]["seconds_per_epoch"][name]
                    for name in SAMPLERS} for dtype in others}
        print(f"speed-up over {first}:", {d: {n: round(r, 2) for n, r in v.items()}
                                           for d, v in record[f"speedup_over_{first}"].items()})
    save_json(args.output, record)


if __name__ == "__main__":
    main()
