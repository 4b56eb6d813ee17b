"""Full-batch MAP training against the papers' torch loops (Yu et al. 2024; Bergamin et al. 2023)."""

from __future__ import annotations

import time

import jax
import numpy as np
import pytest

from geobayes.networks.mlp import MultilayerPerceptron
from geobayes.optimize.train_network import TrainingResult, train_network

NET = MultilayerPerceptron((1, 10, 1), "tanh")


def _data(n=150, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.uniform(0.0, 6.0, size=(n, 1))
    return x, np.sin(2.0 * x[:, 0]) + 0.3 * rng.standard_normal(n)


def _theta0(seed=1):
    return np.asarray(NET.initial_parameters(jax.random.key(seed)))


def _torch_trajectory(x, y, theta0, *, optimizer, lr, wd, epochs, loss):
    """The papers' torch loop, float64: parameters after every epoch."""
    import torch  # the peer; installed by `make venv`, never skipped
    model = torch.nn.Sequential(torch.nn.Linear(1, 10), torch.nn.Tanh(), torch.nn.Linear(10, 1)).double()
    torch.nn.utils.vector_to_parameters(torch.tensor(theta0), model.parameters())  # a copy
    opt_class = {"adam": torch.optim.Adam, "sgd": torch.optim.SGD}[optimizer]
    opt = opt_class(model.parameters(), lr=lr, weight_decay=wd)
    X, Y = torch.from_numpy(x), torch.from_numpy(y).view(-1, 1)
    criterion = torch.nn.MSELoss()
    thetas = []
    for _ in range(epochs):
        opt.zero_grad()
        pred = model(X)
        value = criterion(pred, Y) if loss == "mse_mean" else 0.5 * torch.sum((pred - Y) ** 2)
        value.backward()
        opt.step()
        thetas.append(torch.nn.utils.parameters_to_vector(model.parameters()).detach().numpy().copy())
    return np.array(thetas)


def test_network_parameter_order_matches_torch():
    import torch  # the peer; installed by `make venv`, never skipped
    x, _ = _data(20)
    theta0 = _theta0()
    model = torch.nn.Sequential(torch.nn.Linear(1, 10), torch.nn.Tanh(), torch.nn.Linear(10, 1)).double()
    torch.nn.utils.vector_to_parameters(torch.tensor(theta0), model.parameters())  # a copy
    np.testing.assert_allclose(np.asarray(NET(theta0, x)), model(torch.from_numpy(x)).detach().numpy(),
                               rtol=0, atol=1e-14)


@pytest.mark.parametrize(
    ("optimizer", "loss", "lr", "wd"),
    [("adam", "mse_mean", 1e-2, 1e-5),  # Yu et al. (2024), Sec. 5.4
     ("sgd", "half_sse", 1e-3, 1e-3)],  # Bergamin et al. (2023), Sec. 5.1, 1-15-1 setting
)
def test_trajectory_matches_torch(optimizer, loss, lr, wd):
    x, y = _data()
    theta0 = _theta0()
    reference = _torch_trajectory(x, y, theta0, optimizer=optimizer, lr=lr, wd=wd, epochs=200, loss=loss)
    assert np.abs(reference[-1] - theta0).max() > 0.05  # the parameters really move
    for epochs in (1, 7, 50, 200):
        result = train_network(NET, x, y, theta0, optimizer=optimizer, learning_rate=lr,
                               weight_decay=wd, epochs=epochs, loss=loss, record_every=13)
        np.testing.assert_allclose(result.theta, reference[epochs - 1], rtol=0, atol=1e-8)


def test_loss_trace_and_final_loss():
    x, y = _data()
    theta0 = _theta0()
    result = train_network(NET, x, y, theta0, optimizer="adam", learning_rate=1e-2, weight_decay=1e-5,
                           epochs=2500, loss="mse_mean", record_every=500)
    assert isinstance(result, TrainingResult) and result.epochs == 2500
    np.testing.assert_array_equal(result.trace_epochs, [0, 500, 1000, 1500, 2000])
    first = float(np.mean((np.asarray(NET(theta0, x))[:, 0] - y) ** 2))
    np.testing.assert_allclose(result.loss_trace[0], first, rtol=1e-14)
    assert np.all(np.diff(result.loss_trace) < 0) and result.loss < result.loss_trace[-1]
    expected = float(np.mean((np.asarray(NET(result.theta, x))[:, 0] - y) ** 2))
    np.testing.assert_allclose(result.loss, expected, rtol=1e-12)
    assert result.loss < 0.5 * result.loss_trace[0]
    # a trace entry is the loss at that epoch: the parameters of a shorter run
    short = train_network(NET, x, y, theta0, optimizer="adam", learning_rate=1e-2, weight_decay=1e-5,
                          epochs=1500, loss="mse_mean", record_every=1500)
    np.testing.assert_allclose(result.loss_trace[3], short.loss, rtol=1e-10)


def test_deterministic_and_independent_of_record_every():
    x, y = _data()
    kwargs = dict(optimizer="sgd", learning_rate=1e-3, weight_decay=1e-3, epochs=1000, loss="half_sse")
    a = train_network(NET, x, y, _theta0(), record_every=100, **kwargs)
    b = train_network(NET, x, y, _theta0(), record_every=100, **kwargs)
    c = train_network(NET, x, y, _theta0(), record_every=333, **kwargs)
    np.testing.assert_array_equal(a.theta, b.theta)
    np.testing.assert_array_equal(a.loss_trace, b.loss_trace)
    np.testing.assert_allclose(c.theta, a.theta, rtol=0, atol=1e-13)
    assert c.trace_epochs.tolist() == [0, 333, 666, 999]


def test_twenty_thousand_epochs_are_fast():
    x, y = _data()
    start = time.perf_counter()
    result = train_network(NET, x, y, _theta0(), optimizer="adam", learning_rate=1e-2, weight_decay=1e-5,
                           epochs=20_000, loss="mse_mean")
    assert time.perf_counter() - start < 10.0  # about a second on a laptop CPU
    assert result.loss_trace.shape == (20,) and result.loss < 0.15  # noise variance 0.09


@pytest.mark.parametrize(
    ("change", "pattern"),
    [({"optimizer": "bfgs"}, "unknown optimizer 'bfgs'; known: adam, sgd"),
     ({"loss": "mse"}, "unknown loss 'mse'; known: mse_mean, half_sse"),
     ({"epochs": 0}, "epochs must be an integer >= 1; got 0"),
     ({"epochs": 10.0}, "epochs must be an integer >= 1"),
     ({"record_every": 0}, "record_every must be an integer >= 1"),
     ({"learning_rate": 0.0}, "learning_rate must be finite and > 0"),
     ({"weight_decay": -1e-3}, "weight_decay must be finite and >= 0")],
)
def test_bad_arguments_raise(change, pattern):
    x, y = _data(10)
    kwargs = dict(optimizer="adam", learning_rate=1e-2, weight_decay=1e-5, epochs=5, loss="mse_mean")
    with pytest.raises(ValueError, match=pattern):
        train_network(NET, x, y, _theta0(), **{**kwargs, **change})


def test_shape_mismatches_raise():
    x, y = _data(10)
    kwargs = dict(optimizer="adam", learning_rate=1e-2, weight_decay=1e-5, epochs=5, loss="mse_mean")
    with pytest.raises(ValueError, match=r"targets of shape \(9, 1\) do not match the network output \(10, 1\)"):
        train_network(NET, x, y[:9], _theta0(), **kwargs)
    with pytest.raises(ValueError, match="network .* has 31 parameters"):
        train_network(NET, x, y, _theta0()[:30], **kwargs)
    with pytest.raises(ValueError, match=r"X must be \(N, d_in\)"):
        train_network(NET, x[:, 0], y, _theta0(), **kwargs)
