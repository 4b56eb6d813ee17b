"""The lax.scan driver: batches (drop_last=False), burn-in and in-epoch thinning (notes Sec. 3.1)."""

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from geobayes.sgmcmc import IdentityPreconditioner, SGRLDInfo, init, kept_steps, noisy_gradient, run_chain, sgrld


def test_paper_schedule_keeps_1990_samples():
    steps = kept_steps(num_epochs=400, steps_per_epoch=500, burn_in=1000, thinning=100)
    assert steps.size == 1990 and steps[0] == 1100 and steps[-1] == 200_000


def _counting_kernel(rng_key, state, gradient):
    """A fake kernel whose position accumulates the batch sums and counts."""
    position = jax.tree.map(jnp.add, state.position, gradient)
    info = SGRLDInfo(jnp.zeros(()), jnp.zeros(()), jnp.asarray(False))
    return state._replace(position=position, step=state.step + 1), info


def test_each_epoch_visits_every_example_once_with_a_padded_last_batch():
    data = jnp.arange(250.0)
    gradient_fn = lambda position, batch, key: {"sum": jnp.sum(batch.mask * batch.data),  # noqa: E731
                                                "count": jnp.sum(batch.mask)}
    state = init({"sum": jnp.zeros(()), "count": jnp.zeros(())}, IdentityPreconditioner())
    final, samples, info = run_chain(jax.random.key(0), _counting_kernel, state, gradient_fn, num_epochs=2,
                                     data=data, batch_size=100, thinning=1)
    assert float(final.position["count"]) == 500.0
    assert float(final.position["sum"]) == 2 * float(jnp.sum(data))
    np.testing.assert_array_equal(samples["count"], [100, 200, 250, 350, 450, 500])  # 3 steps per epoch
    assert info.drift_norm.shape == (6,) and int(final.step) == 6


def test_thinning_burn_in_and_determinism():
    logdensity = lambda p: -0.5 * jnp.sum(p["x"] ** 2)  # noqa: E731
    algorithm = sgrld(IdentityPreconditioner(), 0.1, 1)
    state = algorithm.init({"x": jnp.zeros(3)})
    gradient_fn = noisy_gradient(logdensity, 1.0)
    run = lambda key: run_chain(key, algorithm.step, state, gradient_fn, num_epochs=3,  # noqa: E731
                                steps_per_epoch=25, burn_in=30, thinning=10, end_epoch=algorithm.end_epoch)
    final, samples, info = run(jax.random.key(1))
    # kept after in-epoch steps 10 and 20 of each epoch, global steps 35, 45, 60, 70 (> 30)
    np.testing.assert_array_equal(kept_steps(3, 25, 30, 10), [35, 45, 60, 70])
    assert samples["x"].shape == (4, 3) and info.noise_norm.shape == (75,)
    again = run(jax.random.key(1))
    assert np.array_equal(again[1]["x"], samples["x"]) and np.array_equal(again[0].position["x"], final.position["x"])
    other = run(jax.random.key(2))
    assert not np.array_equal(other[1]["x"], samples["x"])


def test_driver_checks_its_arguments():
    state = init({"x": jnp.zeros(1)}, IdentityPreconditioner())
    with pytest.raises(ValueError, match="steps_per_epoch"):
        run_chain(jax.random.key(0), _counting_kernel, state, None, num_epochs=1)
    with pytest.raises(ValueError, match="thinning"):
        run_chain(jax.random.key(0), _counting_kernel, state, None, num_epochs=1, steps_per_epoch=2, thinning=0)
