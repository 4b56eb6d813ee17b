"""Softmax classifier networks: ``y_n ~ Categorical(softmax(f_theta(x_n)))``, Gaussian prior."""

from __future__ import annotations

import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np

from geobayes.dataset import Dataset
from geobayes.families.categorical import Categorical
from geobayes.models.embedding_model import EmbeddingModel
from geobayes.models.gaussian_prior import GaussianPrior
from geobayes.networks.cnn import ConvolutionalNetwork
from geobayes.networks.mlp import MultilayerPerceptron
from geobayes.posterior import Posterior


def reference_natural_parameters(logits: jax.Array) -> jax.Array:
    """``eta_nc = f_nc - f_nC``, shape (N, C-1): the :class:`Categorical` natural parameters
    (class ``C`` the reference) of the logits ``f`` (N, C); ``softmax`` is unchanged."""
    return logits[:, :-1] - logits[:, -1:]


#: Examples per chunk of the classifiers' Fisher (GGN) (memory: chunk x C x D Jacobians).
FISHER_CHUNK = 64


class NetworkSoftmaxClassifier(EmbeddingModel):
    """``y_n ~ Categorical(softmax(f_theta(x_n)))``, ``theta ~ N(0, prior variance I)``.

    Bergamin et al. (2023), Sec. 5.2 and App. D: the loss ``L(theta) = sum_n CE(f_theta(x_n),
    y_n) + ||theta||^2 / (2 prior variance)`` (sum reduction) of the banana, pinwheel and UCI
    MLPs and of the MNIST CNN. Labels are class indices ``0 .. C-1`` (``Dataset`` stores them as
    float64; :class:`~geobayes.families.categorical.Categorical` casts them back).

    The embedding is the family's ``C-1`` natural parameters ``eta = A f`` with ``A = [I, -1]``
    (:func:`reference_natural_parameters`). ``A^T (diag p' - p' p'^T) A = diag p - p p^T`` for
    ``p' = p[:C-1]`` (both have zero row sums), so the family's Fisher pulled back through
    ``eta`` is the softmax cross-entropy GGN ``sum_n J_n^T (diag p_n - p_n p_n^T) J_n`` over the
    ``C`` logits, ``J_n = d f(x_n) / d theta``: :meth:`fisher` is laplace-torch's full GGN
    precision plus the prior precision (tested).

    Parameters
    ----------
    network
        A :class:`MultilayerPerceptron` with ``C >= 2`` outputs or a
        :class:`ConvolutionalNetwork`.
    prior
        The Gaussian prior (precision ``alpha = 2 wd`` in the paper's code, notes Sec. 5.1).
    """

    network: MultilayerPerceptron | ConvolutionalNetwork = eqx.field(default=None)
    prior: GaussianPrior = eqx.field(default_factory=lambda: GaussianPrior(variance=1.0))
    family: Categorical = eqx.field(default_factory=Categorical)

    def __check_init__(self):
        if not isinstance(self.network, (MultilayerPerceptron, ConvolutionalNetwork)):
            raise ValueError(f"{type(self).__name__} needs network=MultilayerPerceptron(...) or "
                             f"ConvolutionalNetwork(...), got {self.network!r}")
        if self.network.num_outputs < 2:
            raise ValueError(f"{type(self).__name__} needs a network with >= 2 outputs (one logit per class), "
                             f"got {self.network.num_outputs}")

    @property
    def num_classes(self) -> int:
        """``C``, the network's output width."""
        return self.network.num_outputs

    def logits(self, theta: jax.Array, X: jax.Array) -> jax.Array:
        """``f_theta(x)`` at inputs ``X``, shape (M, C)."""
        return self.network(theta, X)

    def embedding(self, theta: jax.Array, data: Dataset) -> jax.Array:
        """Natural parameters ``f_c(x_n) - f_C(x_n)`` at the training inputs, shape (N, C-1)."""
        return reference_natural_parameters(self.logits(theta, data.X))

    def predict(self, theta: jax.Array, X: jax.Array) -> jax.Array:
        """Logits at new inputs, shape (M, C)."""
        return self.logits(theta, X)

    def probabilities(self, theta: jax.Array, X: jax.Array) -> jax.Array:
        """Class probabilities ``softmax(f_theta(x))``, shape (M, C)."""
        return jax.nn.softmax(self.logits(theta, X), axis=-1)

    def dim(self, data: Dataset) -> int:
        """D = number of network weights."""
        return self.network.num_parameters

    def fisher(self, theta: jax.Array, data: Dataset) -> jax.Array:
        """``sum_n J_n^T (diag p_n - p_n p_n^T) J_n + prior precision``: the family's Fisher pulled
        back through the logits (the softmax GGN, laplace-torch's full Laplace precision), built
        from per-example Jacobians in chunks of :data:`FISHER_CHUNK` examples
        (:func:`geobayes.laplace.classification.classification_ggn_traceable`). The generic path's
        ``jacfwd`` carries all ``D`` tangents through every layer at once: for the 1,828-weight CNN
        on 1,000 images that is 67 GB; here a chunk's live memory is its ``(B, C, D)`` Jacobians.
        Equal to the generic path (tested)."""
        from geobayes.laplace.classification import classification_ggn_traceable

        ggn, _ = classification_ggn_traceable(self.logits, theta, data.X, data.y.astype(jnp.int32),
                                              min(FISHER_CHUNK, int(data.X.shape[0])))
        return ggn + self.prior.precision(theta.shape[0])

    def linearised(self, anchor: jax.Array) -> LinearisedNetworkSoftmaxClassifier:
        """This classifier with its network linearised at ``anchor`` (Bergamin et al. 2023, Sec. 3.2)."""
        return LinearisedNetworkSoftmaxClassifier(network=self.network, prior=self.prior, family=self.family,
                                                  anchor=jnp.asarray(anchor, dtype=jnp.float64))


class LinearisedNetworkSoftmaxClassifier(NetworkSoftmaxClassifier):
    """Logits linearised at ``anchor``: ``f_lin(x) = f_{anchor}(x) + J_{anchor}(x)(theta - anchor)``.

    Bergamin et al. (2023), Sec. 3.2 and App. C: lin-riem-LA's geodesics follow the loss of the
    linearised network, and lin-LA / lin-riem-LA predict with it (notes Sec. 1.6, from the
    authors' code). The Jacobian is constant and never stored (one ``jax.jvp`` per evaluation),
    so the negative Hessian of the log posterior is exactly the GGN ``sum_n J_n^T (diag p_n -
    p_n p_n^T) J_n`` plus the prior precision, with ``p_n`` the softmax of the *current*
    linearised logits: unlike the Gaussian case it is not constant in ``theta`` (notes Sec. 1.3),
    and at the anchor it is the network's GGN.
    """

    anchor: jax.Array = eqx.field(default=None)

    #: Already linear: linearising again is refused (as for :class:`LinearisedNetworkRegression`).
    linearised = None

    def __check_init__(self):
        if self.anchor is None:
            raise ValueError("a linearised network needs its anchor (the MAP weights)")

    def logits(self, theta: jax.Array, X: jax.Array) -> jax.Array:
        """``f_{anchor}(x) + J_{anchor}(x)(theta - anchor)``, shape (M, C)."""
        mean, tangent = jax.jvp(lambda w: self.network(w, X), (self.anchor,), (theta - self.anchor,))
        return mean + tangent


def softmax_classifier_posterior(name: str, model: NetworkSoftmaxClassifier, X, y) -> Posterior:
    """``model`` conditioned on inputs ``X`` (N, d) and class indices ``y`` (N,).

    Raises
    ------
    ValueError
        If a label is not an integer in ``0 .. C-1`` (JAX would index out of range silently).
    """
    labels = np.asarray(y, dtype=np.float64)
    bad = ~((labels == np.round(labels)) & (labels >= 0) & (labels < model.num_classes))
    if labels.ndim == 1 and bad.any():
        raise ValueError(f"{name}: labels must be class indices 0 .. {model.num_classes - 1}, "
                         f"got {float(labels[bad][0])!r} at index {int(np.flatnonzero(bad)[0])}")
    return Posterior(name, model, Dataset(X, labels))
