"""Reader of the 20News-different tf-idf files (sparse text) used for the SAM experiments.

Format (``diff.train.tfidf1.data`` / ``diff.test.tfidf1.data`` of the Riem-SVGD repository,
``SAM/data/20News-diff``; Liu & Zhu (2018), Sec. 5.2; Liu, Zhu & Song (2016)):

* line 1: ``V D`` (vocabulary size, number of documents);
* then one line per document: ``n y w:t w:t ...`` with ``n`` the number of ``w:t`` pairs, ``y``
  the label (1-based) and ``w`` 0-based word ids with tf-idf values ``t``; each document's tf-idf
  vector is L2-normalised;
* a trailer line holding the number of labels.

The reader returns dense float64 rows (the SAM likelihood is ``vMF(v_d | beta theta_d / |.|,
kappa)``, which needs unit vectors ``v_d``) and checks everything it can: header counts, pair
counts, ids in range and unique, finite values, labels in ``1..n_labels``, unit row norms.
Every error is one line naming the file and line number.
"""

from __future__ import annotations

import math
import os
from pathlib import Path
from typing import NamedTuple

import numpy as np

from geobayes.data.prepared import register_dataset

__all__ = ["LIU2018_SAM", "News20Tfidf", "UNIT_NORM_TOLERANCE", "load_news20_tfidf", "prepare_sam_documents"]

#: Allowed deviation of a row's L2 norm from 1 (values are stored with 11 significant digits).
UNIT_NORM_TOLERANCE = 1e-6


class News20Tfidf(NamedTuple):
    """A parsed tf-idf file.

    Attributes
    ----------
    documents : numpy.ndarray
        ``(D, V)`` float64, rows of unit L2 norm (renormalised exactly after the check).
    labels : numpy.ndarray
        ``(D,)`` int64 labels as stored (1-based).
    n_labels : int
        Number of labels from the trailer line.
    """

    documents: np.ndarray
    labels: np.ndarray
    n_labels: int


def _int(token: str, where: str, what: str) -> int:
    try:
        return int(token)
    except ValueError:
        raise ValueError(f"{where}: {what} must be an integer, got {token!r}") from None


def load_news20_tfidf(path: str | os.PathLike[str], *, vocabulary_size: int | None = None,
                      n_documents: int | None = None) -> News20Tfidf:
    """Read a 20News-different tf-idf file into dense unit-norm rows and labels.

    Parameters
    ----------
    path : str or os.PathLike
        The ``*.tfidf1.data`` file.
    vocabulary_size, n_documents : int, optional
        Expected header values (e.g. 5000 and 1666 for the training file); checked if given.

    Returns
    -------
    News20Tfidf
        ``documents`` (D, V) float64 with unit rows, ``labels`` (D,) int64, ``n_labels``.

    Raises
    ------
    ValueError
        One line ``<file>, line <k>: <problem>`` for any malformed content.

    Notes
    -----
    Data of Liu & Zhu (2018), Sec. 5.2 (20News-different: 1,666 training / 1,107 test
    documents, 5,000 words, 3 classes), tf-idf as in Liu, Zhu & Song (2016).
    """
    path = Path(path)
    try:
        text = path.read_text(encoding="ascii")
    except (OSError, UnicodeDecodeError) as error:
        raise ValueError(f"{path}: not a readable tf-idf text file ({error})") from error
    lines = text.splitlines()
    # drop trailing blank lines but keep numbering
    while lines and not lines[-1].strip():
        lines.pop()
    if not lines:
        raise ValueError(f"{path}, line 1: empty file, expected header 'V D'")
    header = lines[0].split()
    if len(header) != 2:
        raise ValueError(f"{path}, line 1: header must be 'V D' (two integers), got {lines[0]!r}")
    n_vocab = _int(header[0], f"{path}, line 1", "V")
    n_docs = _int(header[1], f"{path}, line 1", "D")
    if n_vocab <= 0 or n_docs <= 0:
        raise ValueError(f"{path}, line 1: V and D must be positive, got V={n_vocab}, D={n_docs}")
    if vocabulary_size is not None and n_vocab != vocabulary_size:
        raise ValueError(f"{path}, line 1: expected vocabulary size V={vocabulary_size}, header says {n_vocab}")
    if n_documents is not None and n_docs != n_documents:
        raise ValueError(f"{path}, line 1: expected D={n_documents} documents, header says {n_docs}")
    if len(lines) != n_docs + 2:
        found = len(lines) - 2
        raise ValueError(
            f"{path}, line {len(lines)}: header says D={n_docs} documents plus a trailer line, "
            f"file has {max(found, 0)} document lines plus trailer ({len(lines)} non-blank-terminated lines)"
        )
    trailer = lines[-1].split()
    where_trailer = f"{path}, line {len(lines)}"
    if len(trailer) != 1:
        raise ValueError(f"{where_trailer}: trailer must be the number of labels (one integer), got {lines[-1]!r}")
    n_labels = _int(trailer[0], where_trailer, "number of labels")
    if n_labels <= 0:
        raise ValueError(f"{where_trailer}: number of labels must be positive, got {n_labels}")

    documents = np.zeros((n_docs, n_vocab), dtype=np.float64)
    labels = np.empty(n_docs, dtype=np.int64)
    for d in range(n_docs):
        line_number = d + 2
        where = f"{path}, line {line_number}"
        tokens = lines[d + 1].split()
        if len(tokens) < 2:
            raise ValueError(f"{where}: expected 'n y w:t ...', got {lines[d + 1][:60]!r}")
        count = _int(tokens[0], where, "term count n")
        label = _int(tokens[1], where, "label y")
        if count != len(tokens) - 2:
            raise ValueError(f"{where}: term count n={count} but {len(tokens) - 2} 'w:t' pairs follow")
        if count == 0:
            raise ValueError(f"{where}: document has no terms (cannot be L2-normalised)")
        if not 1 <= label <= n_labels:
            raise ValueError(f"{where}: label {label} outside 1..{n_labels} (trailer line {len(lines)})")
        labels[d] = label
        row = documents[d]
        seen: set[int] = set()
        for pair in tokens[2:]:
            word, sep, value = pair.partition(":")
            if not sep:
                raise ValueError(f"{where}: expected 'w:t', got {pair!r}")
            word_id = _int(word, where, "word id")
            if not 0 <= word_id < n_vocab:
                raise ValueError(f"{where}: word id {word_id} outside 0..{n_vocab - 1} (V={n_vocab})")
            try:
                tfidf = float(value)
            except ValueError:
                raise ValueError(f"{where}: tf-idf value must be a number, got {value!r} (word {word_id})") from None
            if not math.isfinite(tfidf):
                raise ValueError(f"{where}: non-finite tf-idf value {value!r} (word {word_id})")
            if word_id in seen:
                raise ValueError(f"{where}: word id {word_id} appears twice")
            seen.add(word_id)
            row[word_id] = tfidf
        norm = float(np.sqrt(row @ row))
        if abs(norm - 1.0) > UNIT_NORM_TOLERANCE:
            raise ValueError(f"{where}: row L2 norm is {norm:.9g}, expected 1 (tolerance {UNIT_NORM_TOLERANCE:g})")
        row /= norm
    return News20Tfidf(documents=documents, labels=labels, n_labels=n_labels)


LIU2018_SAM = register_dataset(
    "liu2018_sam", ("train_documents", "train_labels", "test_documents", "test_labels"),
    "Liu & Zhu (2018) Sec. 5.2: 20News-different tf-idf rows (unit L2 norm), train and test",
)


def prepare_sam_documents(train: str | os.PathLike[str], test: str | os.PathLike[str], *,
                          n_train: int | None = None, n_test: int | None = None, seed: int = 0) -> dict[str, np.ndarray]:
    """The SAM experiment's documents: both files, or a seeded random subset of each (the small scales).

    Parameters
    ----------
    train, test
        ``diff.train.tfidf1.data`` and ``diff.test.tfidf1.data``.
    n_train, n_test
        Documents kept (None: all, the paper's 1,666 and 1,107); a subset keeps the file order.
    seed
        Seed of the subsets.
    """
    arrays = {}
    rng = np.random.default_rng(seed)
    for part, path, keep in (("train", train, n_train), ("test", test, n_test)):
        parsed = load_news20_tfidf(path)
        rows = np.arange(parsed.documents.shape[0])
        if keep is not None:
            if not 1 <= keep <= rows.size:
                raise ValueError(f"{path}: cannot keep {keep} of its {rows.size} documents")
            rows = np.sort(rng.choice(rows, size=keep, replace=False))
        arrays[f"{part}_documents"], arrays[f"{part}_labels"] = parsed.documents[rows], parsed.labels[rows]
    return arrays
