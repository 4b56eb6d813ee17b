"""Classifier training equals the torch loop of Bergamin et al. (2023) step for step."""

import jax
import jax.numpy as jnp
import numpy as np
import pytest
import torch

from geobayes.networks.mlp import MultilayerPerceptron
from geobayes.optimize.train_classifier import ClassifierTraining, train_classifier

NET = MultilayerPerceptron((2, 6, 3), "tanh")


def _data(n=37, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 2))
    y = (np.arctan2(X[:, 1], X[:, 0]) > 0).astype(int) + (X[:, 0] > 1).astype(int)
    return X, y


def _torch_loop(theta0, X, y, settings, batches):
    """The paper's loop: torch SGD/Adam with coupled weight decay on CrossEntropyLoss."""
    model = torch.nn.Sequential(torch.nn.Linear(2, 6), torch.nn.Tanh(), torch.nn.Linear(6, 3)).double()
    torch.nn.utils.vector_to_parameters(torch.tensor(np.asarray(theta0)), model.parameters())
    opt_class = torch.optim.SGD if settings.optimizer == "sgd" else torch.optim.Adam
    optimiser = opt_class(model.parameters(), lr=settings.learning_rate, weight_decay=settings.weight_decay)
    scheduler = (torch.optim.lr_scheduler.CosineAnnealingLR(optimiser, T_max=settings.epochs)
                 if settings.schedule == "cosine" else None)
    loss_fn = torch.nn.CrossEntropyLoss(reduction="sum" if settings.loss == "cross_entropy_sum" else "mean")
    Xt, yt = torch.tensor(np.array(X)), torch.tensor(np.array(y))
    for epoch in range(settings.epochs):
        for index in batches(epoch):
            optimiser.zero_grad()
            rows = torch.from_numpy(np.array(index))  # a copy: the batch indices arrive read-only
            loss_fn(model(Xt[rows]), yt[rows]).backward()
            optimiser.step()
        if scheduler is not None:
            scheduler.step()
    return torch.nn.utils.parameters_to_vector(model.parameters()).detach().numpy()


@pytest.mark.parametrize("optimizer", ["sgd", "adam"])
def test_full_batch_training_equals_torch(optimizer):
    X, y = _data()
    theta0 = NET.initial_parameters(jax.random.PRNGKey(0))
    settings = ClassifierTraining(optimizer=optimizer, learning_rate=1e-2, weight_decay=1e-2, epochs=60,
                                  loss="cross_entropy_sum")
    ours = train_classifier(NET, X, y, theta0, settings, jax.random.PRNGKey(1), record_every=25)
    theirs = _torch_loop(theta0, X, y, settings, lambda e: [np.arange(len(y))])
    np.testing.assert_allclose(ours.theta, theirs, rtol=1e-9, atol=1e-11)
    assert ours.loss_trace.shape == (3,) and ours.loss_trace[-1] < ours.loss_trace[0]


def test_mini_batches_and_cosine_annealing_equal_torch():
    X, y = _data(n=37)
    theta0 = NET.initial_parameters(jax.random.PRNGKey(2))
    key = jax.random.PRNGKey(3)
    settings = ClassifierTraining(optimizer="sgd", learning_rate=5e-2, weight_decay=5e-4, epochs=7,
                                  loss="cross_entropy_mean", batch_size=10, schedule="cosine")
    ours = train_classifier(NET, X, y, theta0, settings, key, record_every=3)

    def batches(epoch):  # the same permutation, cut into batches of 10 (the last one of 7)
        order = np.asarray(jax.random.permutation(jax.random.fold_in(key, epoch), len(y)))
        return [order[i:i + 10] for i in range(0, len(y), 10)]

    np.testing.assert_allclose(ours.theta, _torch_loop(theta0, X, y, settings, batches), rtol=1e-9, atol=1e-11)


@pytest.mark.parametrize("change, match", [
    ({"loss": "hinge"}, "training.loss: unknown 'hinge'"),
    ({"schedule": "step"}, "training.schedule: unknown 'step'"),
    ({"batch_size": 0}, "training.batch_size must be an integer >= 1"),
    ({"learning_rate": -1.0}, "training.learning_rate must be finite and > 0"),
])
def test_bad_settings_name_the_key(change, match):
    base = dict(optimizer="sgd", learning_rate=1e-3, weight_decay=0.0, epochs=1, loss="cross_entropy_sum")
    with pytest.raises(ValueError, match=match):
        ClassifierTraining(**{**base, **change})


def test_labels_outside_the_classes_are_named():
    X, y = _data()
    settings = ClassifierTraining(optimizer="sgd", learning_rate=1e-3, weight_decay=0.0, epochs=1,
                                  loss="cross_entropy_sum")
    with pytest.raises(ValueError, match=r"labels must be integers in \[0, 3\)"):
        train_classifier(NET, X, y + 1, NET.initial_parameters(jax.random.PRNGKey(0)), settings, jax.random.PRNGKey(0))
    with pytest.raises(ValueError, match="X has 37 rows but y has 36 labels"):
        train_classifier(NET, X, y[:-1], NET.initial_parameters(jax.random.PRNGKey(0)), settings, jax.random.PRNGKey(0))


def test_the_anchor_as_given_keeps_the_trained_weights_and_records_its_gradient():
    from geobayes.optimize import anchor_as_given

    def objective(theta, args):
        return -0.5 * jnp.sum((theta - args) ** 2)

    target = jnp.array([1.0, -2.0])
    at = anchor_as_given(objective, target, np.array([1.0, -1.0]))
    np.testing.assert_array_equal(at.position, [1.0, -1.0])
    assert at.logdensity == -0.5 and at.grad_norm == 1.0 and not at.converged
    assert anchor_as_given(objective, target, np.asarray(target)).converged
    with pytest.raises(ValueError, match="the anchor must be a finite vector"):
        anchor_as_given(objective, target, np.array([np.nan, 0.0]))
