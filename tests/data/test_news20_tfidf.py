"""20News-different tf-idf reader: the real mirror files and malformed files (errors name file and line).

Lives with the SAM tests (its only user); the reader is ``geobayes.data.news20_tfidf``.
"""

import numpy as np
import pytest
from data_mirror import mirror_file

from geobayes.data.news20_tfidf import load_news20_tfidf


@pytest.mark.parametrize(("name", "n_docs", "counts"), [("train", 1666, [593, 593, 480]), ("test", 1107, [397, 392, 318])])
def test_real_files(name, n_docs, counts):
    path = mirror_file(f"20news_diff/diff.{name}.tfidf1.data")
    data = load_news20_tfidf(path, vocabulary_size=5000, n_documents=n_docs)
    assert data.documents.shape == (n_docs, 5000) and data.documents.dtype == np.float64
    assert data.n_labels == 3
    assert np.bincount(data.labels, minlength=4)[1:].tolist() == counts
    np.testing.assert_allclose(np.linalg.norm(data.documents, axis=1), 1.0, atol=1e-14)
    assert np.all(data.documents >= 0)
    nonzeros = {"train": 117442, "test": 79379}[name]  # MANIFEST.tsv
    assert int((data.documents != 0).sum()) == nonzeros


GOOD = "4 2\n2 1 0:0.6 3:0.8\n1 2 2:1.0\n2\n"


def test_small_good_file(tmp_path):
    path = tmp_path / "ok.data"
    path.write_text(GOOD)
    data = load_news20_tfidf(path)
    np.testing.assert_allclose(data.documents, [[0.6, 0, 0, 0.8], [0, 0, 1.0, 0]])
    assert data.labels.tolist() == [1, 2] and data.n_labels == 2


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        ("4\n2 1 0:0.6 3:0.8\n1 2 2:1.0\n2\n", 1, "header must be 'V D'"),
        ("4 3\n2 1 0:0.6 3:0.8\n1 2 2:1.0\n2\n", 4, "header says D=3 documents"),
        ("4 2\n3 1 0:0.6 3:0.8\n1 2 2:1.0\n2\n", 2, "term count n=3 but 2 'w:t' pairs follow"),
        ("4 2\n2 1 0:0.6 4:0.8\n1 2 2:1.0\n2\n", 2, r"word id 4 outside 0..3"),
        ("4 2\n2 1 0:0.6 3:0.8\n1 2 -1:1.0\n2\n", 3, r"word id -1 outside 0..3"),
        ("4 2\n2 1 0:0.6 3:0.9\n1 2 2:1.0\n2\n", 2, "row L2 norm is 1.0816"),
        ("4 2\n2 1 0:0.6 3:0.8\n1 3 2:1.0\n2\n", 3, r"label 3 outside 1..2"),
        ("4 2\n2 1 0:0.6 0:0.8\n1 2 2:1.0\n2\n", 2, "word id 0 appears twice"),
        ("4 2\n2 1 0:0.6 3:x\n1 2 2:1.0\n2\n", 2, "tf-idf value must be a number, got 'x'"),
        ("4 2\n2 1 0:0.6 3:nan\n1 2 2:1.0\n2\n", 2, "non-finite tf-idf value"),
        ("4 2\n2 1 0:0.6 3:0.8\n1 2 2:1.0\n2 3\n", 4, "trailer must be the number of labels"),
        ("4 2\n2 1 0:0.6 3=0.8\n1 2 2:1.0\n2\n", 2, "expected 'w:t', got '3=0.8'"),
    ],
)
def test_malformed_files_name_file_and_line(tmp_path, text, line, message):
    path = tmp_path / "bad.data"
    path.write_text(text)
    with pytest.raises(ValueError, match=message) as info:
        load_news20_tfidf(path)
    text_of_error = str(info.value)
    assert text_of_error.startswith(f"{path}, line {line}:") and "\n" not in text_of_error


def test_expected_header_values_are_checked(tmp_path):
    path = tmp_path / "ok.data"
    path.write_text(GOOD)
    with pytest.raises(ValueError, match=r"line 1: expected vocabulary size V=5000, header says 4"):
        load_news20_tfidf(path, vocabulary_size=5000)
    with pytest.raises(ValueError, match="not a readable tf-idf text file"):
        load_news20_tfidf(tmp_path / "missing.data")


def test_sam_documents_keep_a_seeded_subset_in_file_order():
    from geobayes.data.news20_tfidf import prepare_sam_documents

    train, test = mirror_file("20news_diff/diff.train.tfidf1.data"), mirror_file("20news_diff/diff.test.tfidf1.data")
    a = prepare_sam_documents(train, test, n_train=50, n_test=30, seed=2)
    b = prepare_sam_documents(train, test, n_train=50, n_test=30, seed=2)
    assert a["train_documents"].shape == (50, 5000) and a["test_labels"].shape == (30,)
    np.testing.assert_array_equal(a["train_documents"], b["train_documents"])
    np.testing.assert_allclose(np.linalg.norm(a["test_documents"], axis=1), 1.0, rtol=1e-12)
    with pytest.raises(ValueError, match="cannot keep 5000 of its 1666 documents"):
        prepare_sam_documents(train, test, n_train=5000, n_test=None)
