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

Usage::

    .venv/bin/python benchmarks/bench_sgrld_epoch.py [--width 400] [--epochs 3] [--train 50000]
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--width", type=int, default=400)
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--train", type=int, default=None, help="training images (default: all 50,000)")
    parser.add_argument("--mirror", default=os.environ.get("GEOBAYES_DATA_MIRROR", str(REPO.parent / "shared" / "data")))
    parser.add_argument("--output", default=str(REPO / "benchmarks" / "results" / "sgrld_epoch.json"))
    args = parser.parse_args()
    split = read_mnist_yu2023(Path(args.mirror) / "mnist", n_train=args.train, n_valid=100, n_test=100)
    train = (jnp.asarray(split["X_train"]), jnp.asarray(split["y_train"]))
    prior = HorseshoePrior()
    position = prior.init_position(network.init_parameters(jax.random.PRNGKey(0), network.mnist_widths(args.width)))

    def log_likelihood(position, data):
        return network.log_likelihoods(prior.network_parameters(position), *data)

    gradient = minibatch_potential_gradient(log_likelihood, prior.log_prior, train[0].shape[0])
    order = ["identity", "wenzel", "rmsprop", "monge", "shampoo", "identity"]
    runs = {}
    for name in order:
        key = name if name not in runs else f"{name}_again"
        runs[key] = epoch_seconds(name, train, position, gradient, args.epochs)
        print(f"{key}: {[round(t, 2) for t in runs[key]]} s per epoch", flush=True)
    baseline = statistics.median(runs["identity"] + runs["identity_again"])
    medians = {name: statistics.median(times) for name, times in runs.items()}
    ratios = {name: medians[name] / baseline for name in SAMPLERS}
    record = {"width": args.width, "train": int(train[0].shape[0]), "steps_per_epoch": -(-int(train[0].shape[0]) // 100),
              "epochs_timed": args.epochs, "seconds_per_epoch": medians, "epoch_times": runs,
              "ratio_to_identity": ratios,
              "load_average": os.getloadavg(), **provenance()}
    save_json(args.output, record)
    print({name: round(r, 2) for name, r in ratios.items()})


if __name__ == "__main__":
    main()
