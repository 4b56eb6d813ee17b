"""The paper's CNN (Bergamin et al. 2023, App. D.5): XLA's convolution against im2col, per dtype.

A riem-LA geodesic step on the CNN evaluates the loss's gradient and a Hessian-vector product on the
batched metric's images (quick scale: 200) six times (Dopri5), so that product sets a CNN job's cost.
This times it, jitted, for ``ConvolutionalNetwork(convolution=...)`` with ``direct`` (XLA's
convolution) and ``im2col`` (one matrix product over stacked shifted views), in float32 and float64,
interleaved repeats in one process, and the network's forward pass on the predictive's 8,000 test
images. ``auto`` picks per dtype from these numbers (:func:`geobayes.networks.cnn.convolution_method`).

Usage::

    python benchmarks/bench_cnn_convolution.py --output benchmarks/results/cnn_convolution.json
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np

import geobayes  # noqa: F401  (float64)
from geobayes.io import provenance, save_json
from geobayes.networks import ConvolutionalNetwork

METHODS = ("direct", "im2col")


def parse_args(argv=None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--images", type=int, nargs="+", default=[200, 1000], help="batch sizes of the product")
    parser.add_argument("--forward-images", type=int, default=8000)
    parser.add_argument("--repeats", type=int, default=9)
    parser.add_argument("--output", type=Path, default=None)
    return parser.parse_args(argv)


def seconds_of(function, *args) -> float:
    """Wall seconds of one call, until its result is ready."""
    start = time.perf_counter()
    jax.block_until_ready(function(*args))
    return time.perf_counter() - start


def timed(function, *args, repeats: int) -> list[float]:
    """One untimed call (compilation), then ``repeats`` timed ones."""
    seconds_of(function, *args)
    return [seconds_of(function, *args) for _ in range(repeats)]


def curvature_product(net: ConvolutionalNetwork, X, y):
    """jit of ``theta, v -> (grad L, H v)`` for the summed cross-entropy ``L`` on ``(X, y)``."""
    def loss(theta):
        return -jnp.sum(jax.nn.log_softmax(net(theta, X))[jnp.arange(X.shape[0]), y])
    return jax.jit(lambda theta, v: jax.jvp(jax.grad(loss), (theta,), (v,)))


def main(argv=None) -> int:
    args = parse_args(argv)
    rows = []
    for dtype in (jnp.float32, jnp.float64):
        nets = {m: ConvolutionalNetwork(convolution=m) for m in METHODS}
        theta = nets["direct"].initial_parameters(jax.random.PRNGKey(0)).astype(dtype)
        v = jax.random.normal(jax.random.PRNGKey(3), theta.shape, dtype)
        for n in args.images:
            X = jax.random.uniform(jax.random.PRNGKey(1), (n, 784), dtype)
            y = jax.random.randint(jax.random.PRNGKey(2), (n,), 0, 10)
            products = {m: curvature_product(net, X, y) for m, net in nets.items()}
            for m in METHODS:
                seconds_of(products[m], theta, v)  # compile
            seconds = {m: [] for m in METHODS}
            for _ in range(args.repeats):  # interleaved, one call each per round
                for m in METHODS:
                    seconds[m].append(seconds_of(products[m], theta, v))
            outs = {m: products[m](theta, v) for m in METHODS}
            difference = max(float(jnp.max(jnp.abs(a - b)) / jnp.max(jnp.abs(b)))
                             for a, b in zip(outs["im2col"], outs["direct"]))
            row = {"what": "gradient and Hessian-vector product", "dtype": jnp.dtype(dtype).name, "images": n,
                   **{f"{m}_ms": 1e3 * float(np.median(seconds[m])) for m in METHODS},
                   "largest_relative_difference": difference}
            row["direct_over_im2col"] = row["direct_ms"] / row["im2col_ms"]
            rows.append(row)
            print(json.dumps(row), flush=True)
        X = jax.random.uniform(jax.random.PRNGKey(4), (args.forward_images, 784), dtype)
        forward = {m: jax.jit(net.__call__) for m, net in nets.items()}
        seconds = {m: timed(forward[m], theta, X, repeats=max(3, args.repeats // 2)) for m in METHODS}
        row = {"what": "forward pass", "dtype": jnp.dtype(dtype).name, "images": args.forward_images,
               **{f"{m}_ms": 1e3 * float(np.median(seconds[m])) for m in METHODS}}
        row["direct_over_im2col"] = row["direct_ms"] / row["im2col_ms"]
        rows.append(row)
        print(json.dumps(row), flush=True)
    if args.output:
        save_json(args.output, {"benchmark": "bench_cnn_convolution", "provenance": provenance(),
                                "backend": jax.default_backend(), "repeats": args.repeats, "rows": rows})
    return 0


if __name__ == "__main__":
    sys.exit(main())
