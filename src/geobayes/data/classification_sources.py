"""Where each classification data set of Bergamin et al. (2023) comes from and how it is split.

One table (:data:`SOURCES`) names, per data set, the registered raw files it reads and whether a
split depends on the training seed; :func:`prepare_classification` turns those files into the one
prepared format, :class:`~geobayes.data.classification_split.ClassificationSplit`:

* ``banana``: the code's fixed split (:mod:`geobayes.data.bergamin_banana`, App. D.2);
* ``pinwheel``: generated as their code does, no file (:mod:`geobayes.data.pinwheel`, App. D.3);
* the six UCI sets: 70/15/15 per seed, standardised on train (:mod:`geobayes.data.uci_classification`,
  App. D.4);
* ``mnist``, ``fashion_mnist``: a balanced training subset per seed and the fixed 2,000/8,000
  valid/test split of the official test set (:mod:`geobayes.data.mnist_family`, App. D.5).

:data:`IMAGE_TEST_SETS` names the official test files of the out-of-distribution sets (App. D.6).
The workflow imports this module while it plans the DAG, so it imports no numerical library at
module level.
"""

from __future__ import annotations

import os
from pathlib import Path
from collections.abc import Callable
from typing import NamedTuple

__all__ = ["ClassificationSource", "IMAGE_TEST_SETS", "SOURCES", "prepare_classification", "prepare_image_test",
           "split_stem"]


class ClassificationSource(NamedTuple):
    """A classification data set: its raw files (registry paths), whether its split takes a seed,
    and ``prepare(name, raw_dir, seed, per_class) -> ClassificationSplit``."""

    files: tuple[str, ...]
    per_seed: bool
    prepare: Callable


def _mnist_files(folder: str) -> tuple[str, ...]:
    return tuple(f"{folder}/{part}-{kind}-idx{dim}-ubyte.gz" for part in ("train", "t10k")
                 for kind, dim in (("images", 3), ("labels", 1)))


_UCI_FILES = {
    "vehicle": ("uci_classification/vehicle/X.txt", "uci_classification/vehicle/Y.txt"),
    "glass": ("uci_classification/glass/X.txt", "uci_classification/glass/Y.txt"),
    "ionosphere": ("uci_classification/ionosphere/ionosphere.data",),
    "waveform": ("uci_classification/waveform/X.txt", "uci_classification/waveform/Y.txt"),
    "australian": tuple(f"uci_classification/australian_presplit/australian_scale_{a}_{p}.csv"
                        for a in ("X", "y") for p in ("tr", "te")),
    "breast_cancer": tuple(f"uci_classification/breast_cancer_scale_presplit/breast_cancer_scale_{a}_{p}.csv"
                           for a in ("X", "y") for p in ("tr", "te")),
}

#: Out-of-distribution set -> its official test images and labels (registry paths; EMNIST ``digits``
#: is pinned but not mirrored, :data:`geobayes.data.registry.PINNED_UNMIRRORED`).
IMAGE_TEST_SETS: dict[str, tuple[str, str]] = {
    "mnist": ("mnist/t10k-images-idx3-ubyte.gz", "mnist/t10k-labels-idx1-ubyte.gz"),
    "fashion_mnist": ("fashion_mnist/t10k-images-idx3-ubyte.gz", "fashion_mnist/t10k-labels-idx1-ubyte.gz"),
    "kmnist": ("kmnist/t10k-images-idx3-ubyte.gz", "kmnist/t10k-labels-idx1-ubyte.gz"),
    "emnist": ("emnist/emnist-digits-test-images-idx3-ubyte.gz", "emnist/emnist-digits-test-labels-idx1-ubyte.gz"),
}


def split_stem(stem: str) -> tuple[str, int | None]:
    """``"vehicle_seed3"`` -> ``("vehicle", 3)``, ``"banana"`` -> ``("banana", None)``.

    Raises
    ------
    ValueError
        If the data set is unknown (listing the known ones) or a per-seed set has no seed.
    """
    name, _, seed = stem.partition("_seed")
    if name not in SOURCES:
        raise ValueError(f"unknown classification data set {name!r}; known: {', '.join(SOURCES)}")
    if SOURCES[name].per_seed and not seed:
        raise ValueError(f"{name}: its split depends on the seed; name the file {name}_seed<k>")
    if seed and not seed.isdigit():
        raise ValueError(f"{stem}: the seed must be a non-negative integer, got {seed!r}")
    return name, int(seed) if seed else None


def _banana(name, raw, seed, per_class):
    from geobayes.data.banana_classification import load_banana_csv
    from geobayes.data.bergamin_banana import split_banana

    return split_banana(*load_banana_csv(raw / SOURCES[name].files[0]))


def _pinwheel(name, raw, seed, per_class):
    from geobayes.data.pinwheel import make_pinwheel, split_pinwheel

    return split_pinwheel(*make_pinwheel())


def _uci(name, raw, seed, per_class):
    from geobayes.data.uci_classification import load_uci_classification, split_uci

    return split_uci(*load_uci_classification(raw, name), seed)


def _images(name, raw, seed, per_class):
    import numpy as np

    from geobayes.data.mnist_family import prepare_mnist_like, read_idx

    if per_class is None:
        raise ValueError(f"{name}: an image set needs subset_per_class (training images per class)")
    images, labels, test_images, test_labels = (read_idx(raw / f) for f in SOURCES[name].files)
    return prepare_mnist_like(images, np.asarray(labels), test_images, np.asarray(test_labels), per_class=per_class,
                              seed=seed)


#: Data set -> its source. The UCI file lists equal :func:`geobayes.data.uci_classification.uci_files`
#: (tested), written out here so that planning the DAG imports nothing numerical.
SOURCES: dict[str, ClassificationSource] = {
    "banana": ClassificationSource(("banana/banana.csv",), False, _banana),
    "pinwheel": ClassificationSource((), False, _pinwheel),
    **{name: ClassificationSource(files, True, _uci) for name, files in _UCI_FILES.items()},
    "mnist": ClassificationSource(_mnist_files("mnist"), True, _images),
    "fashion_mnist": ClassificationSource(_mnist_files("fashion_mnist"), True, _images),
}


def prepare_classification(stem: str, raw: str | os.PathLike[str], *, per_class: int | None = None):
    """The split ``stem`` (``<dataset>`` or ``<dataset>_seed<k>``) from the raw files under ``raw``.

    Parameters
    ----------
    stem : str
        Data set and, where its split takes one, the seed.
    raw : str or os.PathLike
        Directory holding the registry paths (``data/raw``); the caller has verified the files.
    per_class : int, optional
        Training images per class (image sets only; the paper's 500).

    Returns
    -------
    ClassificationSplit

    Raises
    ------
    ValueError
        From :func:`split_stem`, or an image set without ``per_class``.
    """
    name, seed = split_stem(stem)
    return SOURCES[name].prepare(name, Path(raw), seed, per_class)


def prepare_image_test(name: str, raw: str | os.PathLike[str]) -> dict:
    """The out-of-distribution test set ``name`` (:data:`IMAGE_TEST_SETS`): ``X`` (N, 784) in [0, 1], ``y``."""
    from geobayes.data.mnist_family import prepare_image_test_set

    if name not in IMAGE_TEST_SETS:
        raise ValueError(f"unknown out-of-distribution set {name!r}; known: {', '.join(IMAGE_TEST_SETS)}")
    images, labels = IMAGE_TEST_SETS[name]
    return prepare_image_test_set(Path(raw) / images, Path(raw) / labels)
