"""Tests of geobayes.data.download against a real HTTP server on 127.0.0.1."""

from __future__ import annotations

import hashlib
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from geobayes.data import (
    ChecksumMismatchError,
    DataFile,
    DataNotFoundError,
    DataSourceError,
    fetch,
    git_blob_id,
    obtain,
    resolve_mirror,
)

CONTENT = bytes(range(256)) * 40 + b"geobayes test payload\n"
SHA = hashlib.sha256(CONTENT).hexdigest()
HOLD_S = 3.0  # how long the "slow" handlers stall at most (released at teardown)
TIMEOUT_S = 0.5  # client timeout in the slow tests


class _Handler(BaseHTTPRequestHandler):
    """Serves files under ``server.root``; prefixes select misbehaviour.

    ``/slow-head/<f>`` stalls before the headers, ``/slow-body/<f>`` stalls after half
    the body, ``/cut/<f>`` announces more bytes than it sends and closes the connection.
    """

    server: _Server

    def do_GET(self) -> None:  # noqa: N802 - http.server API
        self.server.requests.append(self.path)
        mode, _, name = self.path.lstrip("/").partition("/")
        if mode not in {"ok", "slow-head", "slow-body", "cut"}:
            mode, name = "ok", self.path.lstrip("/")
        source = self.server.root / name
        if not source.is_file():
            self.send_error(404, "Not Found")
            return
        body = source.read_bytes()
        try:
            if mode == "slow-head":
                self.server.release.wait(HOLD_S)
            self.send_response(200)
            self.send_header("Content-Type", "application/octet-stream")
            extra = 1000 if mode == "cut" else 0
            self.send_header("Content-Length", str(len(body) + extra))
            self.end_headers()
            if mode in {"slow-body", "cut"}:
                self.wfile.write(body[: len(body) // 2])
                self.wfile.flush()
                if mode == "slow-body":
                    self.server.release.wait(HOLD_S)
                self.close_connection = True
                return
            self.wfile.write(body)
        except OSError:  # the client gave up (timeout tests)
            self.close_connection = True

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002
        pass


class _Server(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, root: Path) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.root = root
        self.requests: list[str] = []
        self.release = threading.Event()

    def handle_error(self, request, client_address) -> None:  # noqa: ANN001
        pass


@pytest.fixture
def server(tmp_path: Path):
    root = tmp_path / "served"
    root.mkdir()
    (root / "good.bin").write_bytes(CONTENT)
    corrupt = bytearray(CONTENT)
    corrupt[100] ^= 0xFF
    (root / "corrupt.bin").write_bytes(bytes(corrupt))
    (root / "long.bin").write_bytes(CONTENT * 3)
    httpd = _Server(root)
    thread = threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.05})
    thread.daemon = True
    thread.start()
    try:
        yield httpd
    finally:
        httpd.release.set()
        httpd.shutdown()
        httpd.server_close()
        thread.join(timeout=5)


def _entry(httpd: _Server, path: str, file: str = "toy/payload.bin") -> DataFile:
    host, port = httpd.server_address[:2]
    return DataFile("toy", file, len(CONTENT), SHA, f"http://{host}:{port}/{path}")


@pytest.fixture
def dest_dir(tmp_path: Path) -> Path:
    return tmp_path / "out" / "toy"


def _assert_nothing_left(dest_dir: Path) -> None:
    leftovers = list(dest_dir.iterdir()) if dest_dir.exists() else []
    assert leftovers == [], f"files left behind: {leftovers}"


def _blob_entry(httpd: _Server, path: str, blob: str = "") -> DataFile:
    """An entry pinned as Liu & Zhu's files are: a git blob id, no size, no sha256."""
    host, port = httpd.server_address[:2]
    return DataFile("toy", "toy/payload.bin", None, None, f"http://{host}:{port}/{path}",
                    git_blob=blob or git_blob_id(CONTENT))


# --------------------------------------------------------------------------- HTTP


def test_git_blob_id_is_the_one_git_computes():
    # `printf 'hello\n' | git hash-object --stdin`; the empty blob's id is git's well-known constant
    assert git_blob_id(b"hello\n") == "ce013625030ba8dba906f756967f9e9ca394464a"
    assert git_blob_id(b"") == "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391"


def test_http_file_pinned_by_its_git_blob_id_is_fetched_and_verified(server, dest_dir):
    dest = dest_dir / "payload.bin"
    assert fetch(_blob_entry(server, "ok/good.bin"), dest, timeout=5) == dest
    assert dest.read_bytes() == CONTENT
    assert fetch(_blob_entry(server, "ok/missing.bin"), dest, timeout=5) == dest  # present and right: not refetched


def test_http_file_whose_git_blob_id_differs_is_rejected_with_both_ids(server, dest_dir):
    with pytest.raises(ChecksumMismatchError) as info:
        fetch(_blob_entry(server, "ok/corrupt.bin"), dest_dir / "payload.bin", timeout=5)
    corrupt = git_blob_id((server.root / "corrupt.bin").read_bytes())
    message = str(info.value)
    assert info.value.algorithm == "git blob" and info.value.actual_digest == corrupt
    assert f"expected git blob {git_blob_id(CONTENT)}, got git blob {corrupt} ({len(CONTENT)} bytes)" in message
    assert "\n" not in message
    _assert_nothing_left(dest_dir)


def test_unreachable_blob_pinned_file_says_what_to_place_by_hand(dest_dir, monkeypatch):
    monkeypatch.delenv("GEOBAYES_DATA_MIRROR", raising=False)
    entry = DataFile("toy", "toy/payload.bin", None, None, "http://127.0.0.1:9/x", git_blob=git_blob_id(CONTENT))
    with pytest.raises(DataNotFoundError, match=f"yourself \\(git blob {git_blob_id(CONTENT)}\\)$"):
        obtain(entry, dest_dir / "payload.bin", timeout=2)


def test_http_good_file_is_fetched_and_verified(server, dest_dir):
    dest = dest_dir / "payload.bin"
    assert fetch(_entry(server, "ok/good.bin"), dest, timeout=5) == dest
    assert dest.read_bytes() == CONTENT
    assert [p.name for p in dest_dir.iterdir()] == ["payload.bin"]


def test_http_corrupt_file_raises_with_both_hashes(server, dest_dir):
    dest = dest_dir / "payload.bin"
    with pytest.raises(ChecksumMismatchError) as info:
        fetch(_entry(server, "ok/corrupt.bin"), dest, timeout=5)
    message = str(info.value)
    corrupt_sha = hashlib.sha256((server.root / "corrupt.bin").read_bytes()).hexdigest()
    assert SHA in message and corrupt_sha in message
    assert "toy/payload.bin" in message
    assert info.value.actual_digest == corrupt_sha
    _assert_nothing_left(dest_dir)


def test_http_oversized_body_is_cut_short_and_rejected(server, dest_dir):
    with pytest.raises(ChecksumMismatchError, match="expected size was exceeded"):
        fetch(_entry(server, "ok/long.bin"), dest_dir / "payload.bin", timeout=5)
    _assert_nothing_left(dest_dir)


def test_http_404_raises_source_error(server, dest_dir):
    entry = _entry(server, "ok/missing.bin")
    with pytest.raises(DataSourceError, match="404") as info:
        fetch(entry, dest_dir / "payload.bin", timeout=5)
    assert entry.url in str(info.value)
    _assert_nothing_left(dest_dir)


@pytest.mark.parametrize("mode", ["slow-head", "slow-body"])
def test_http_slow_server_times_out(server, dest_dir, mode):
    entry = _entry(server, f"{mode}/good.bin")
    start = time.monotonic()
    with pytest.raises(DataSourceError, match="timed out") as info:
        fetch(entry, dest_dir / "payload.bin", timeout=TIMEOUT_S)
    assert time.monotonic() - start < HOLD_S
    assert entry.url in str(info.value)
    _assert_nothing_left(dest_dir)


def test_http_interrupted_body_raises_source_error(server, dest_dir):
    entry = _entry(server, "cut/good.bin")
    with pytest.raises(DataSourceError, match="incomplete body") as info:
        fetch(entry, dest_dir / "payload.bin", timeout=5)
    assert entry.url in str(info.value)
    _assert_nothing_left(dest_dir)


def test_present_file_is_not_refetched(server, dest_dir):
    dest = dest_dir / "payload.bin"
    dest_dir.mkdir(parents=True)
    dest.write_bytes(CONTENT)
    assert fetch(_entry(server, "ok/good.bin"), dest, timeout=5) == dest
    assert server.requests == []


def test_stale_file_is_replaced(server, dest_dir):
    dest = dest_dir / "payload.bin"
    dest_dir.mkdir(parents=True)
    dest.write_bytes(b"stale")
    fetch(_entry(server, "ok/good.bin"), dest, timeout=5)
    assert dest.read_bytes() == CONTENT
    assert server.requests == ["/ok/good.bin"]


def test_stale_file_is_removed_when_fetch_fails(server, dest_dir):
    dest = dest_dir / "payload.bin"
    dest_dir.mkdir(parents=True)
    dest.write_bytes(b"stale")
    with pytest.raises(DataSourceError):
        fetch(_entry(server, "ok/missing.bin"), dest, timeout=5)
    _assert_nothing_left(dest_dir)


# ------------------------------------------------------------------------- mirror


@pytest.fixture
def mirror(tmp_path: Path) -> Path:
    root = tmp_path / "mirror"
    (root / "toy").mkdir(parents=True)
    (root / "toy" / "payload.bin").write_bytes(CONTENT)
    (root / "toy" / "corrupt.bin").write_bytes(CONTENT[:-1] + b"X")
    return root


def _mirror_entry(file: str) -> DataFile:
    return DataFile("toy", file, len(CONTENT), SHA, "http://127.0.0.1:9/unused")


def test_mirror_good_file_is_copied(mirror, dest_dir):
    dest = dest_dir / "payload.bin"
    assert fetch(_mirror_entry("toy/payload.bin"), dest, mirror=mirror) == dest
    assert dest.read_bytes() == CONTENT


def test_mirror_missing_file_names_path_and_setting(mirror, dest_dir):
    with pytest.raises(DataSourceError) as info:
        fetch(_mirror_entry("toy/absent.bin"), dest_dir / "absent.bin", mirror=mirror)
    message = str(info.value)
    assert str(mirror / "toy" / "absent.bin") in message
    assert "GEOBAYES_DATA_MIRROR" in message and "data.mirror" in message
    _assert_nothing_left(dest_dir)


def test_mirror_corrupt_file_raises_checksum_error(mirror, dest_dir):
    with pytest.raises(ChecksumMismatchError) as info:
        fetch(_mirror_entry("toy/corrupt.bin"), dest_dir / "corrupt.bin", mirror=mirror)
    actual = hashlib.sha256(CONTENT[:-1] + b"X").hexdigest()
    assert SHA in str(info.value) and actual in str(info.value)
    _assert_nothing_left(dest_dir)


# ------------------------------------------------------------------ resolve_mirror


def test_env_var_overrides_config_mirror(tmp_path, monkeypatch):
    env_dir, cfg_dir = tmp_path / "env", tmp_path / "cfg"
    env_dir.mkdir()
    cfg_dir.mkdir()
    monkeypatch.setenv("GEOBAYES_DATA_MIRROR", str(env_dir))
    assert resolve_mirror(str(cfg_dir)) == env_dir
    monkeypatch.delenv("GEOBAYES_DATA_MIRROR")
    assert resolve_mirror(str(cfg_dir)) == cfg_dir
    assert resolve_mirror(None) is None


def test_mirror_that_is_not_a_directory_is_an_error(tmp_path, monkeypatch):
    monkeypatch.delenv("GEOBAYES_DATA_MIRROR", raising=False)
    missing = tmp_path / "nowhere"
    with pytest.raises(DataSourceError, match="config key data.mirror") as info:
        resolve_mirror(str(missing))
    assert str(missing) in str(info.value)
    monkeypatch.setenv("GEOBAYES_DATA_MIRROR", str(missing))
    with pytest.raises(DataSourceError, match="GEOBAYES_DATA_MIRROR") as info:
        resolve_mirror(None)
    assert str(missing) in str(info.value)


# ------------------------------------------------------------------ obtain (the download rule)


def test_obtain_prefers_the_mirror(server, mirror, dest_dir, monkeypatch):
    monkeypatch.delenv("GEOBAYES_DATA_MIRROR", raising=False)
    entry = _entry(server, "ok/good.bin")
    assert obtain(entry, dest_dir / "payload.bin", config_mirror=mirror, timeout=5) == str(mirror / "toy/payload.bin")
    assert (dest_dir / "payload.bin").read_bytes() == CONTENT
    assert server.requests == []


def test_obtain_falls_back_to_the_url_when_the_mirror_lacks_the_file(server, tmp_path, dest_dir, monkeypatch):
    empty = tmp_path / "empty_mirror"
    empty.mkdir()
    monkeypatch.setenv("GEOBAYES_DATA_MIRROR", str(empty))
    entry = _entry(server, "ok/good.bin")
    assert obtain(entry, dest_dir / "payload.bin", timeout=5) == entry.url
    assert (dest_dir / "payload.bin").read_bytes() == CONTENT


def test_broken_mirror_and_failing_url_give_one_line_with_every_attempt_and_the_fix(server, dest_dir, monkeypatch):
    monkeypatch.setenv("GEOBAYES_DATA_MIRROR", "/nonexistent")
    entry = _entry(server, "ok/missing.bin")
    dest = dest_dir / "payload.bin"
    with pytest.raises(DataNotFoundError) as info:
        obtain(entry, dest, timeout=5)
    message = str(info.value)
    assert "\n" not in message
    assert message.startswith("cannot obtain data file toy/payload.bin. Tried the mirror: ")
    assert "GEOBAYES_DATA_MIRROR is not a directory: '/nonexistent'" in message
    assert f"URL {entry.url}: HTTP 404" in message
    assert "Fix: set GEOBAYES_DATA_MIRROR (or the config key data.mirror)" in message
    assert f"place the file at {dest} yourself ({len(CONTENT)} bytes, sha256 {SHA})" in message
    assert [source for source, _ in info.value.attempts] == ["the mirror", f"URL {entry.url}"]
    _assert_nothing_left(dest_dir)


def test_unset_mirror_and_unreachable_url(dest_dir, monkeypatch):
    """No mirror configured and nothing listening at the URL (as offline: connection refused)."""
    import socket

    with socket.socket() as probe:  # a loopback port with no server behind it
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    monkeypatch.delenv("GEOBAYES_DATA_MIRROR", raising=False)
    entry = DataFile("toy", "toy/payload.bin", len(CONTENT), SHA, f"http://127.0.0.1:{port}/payload.bin")
    with pytest.raises(DataNotFoundError) as info:
        obtain(entry, dest_dir / "payload.bin", config_mirror=None, timeout=5)
    message = str(info.value)
    assert "the mirror: none set (GEOBAYES_DATA_MIRROR and data.mirror are empty)" in message
    assert f"URL {entry.url}: cannot reach it: " in message and "refused" in message
    _assert_nothing_left(dest_dir)


def test_corrupt_mirror_copy_is_reported_beside_the_url_error(server, mirror, dest_dir, monkeypatch):
    monkeypatch.delenv("GEOBAYES_DATA_MIRROR", raising=False)
    entry = DataFile("toy", "toy/corrupt.bin", len(CONTENT), SHA, _entry(server, "ok/missing.bin").url)
    with pytest.raises(DataNotFoundError) as info:
        obtain(entry, dest_dir / "corrupt.bin", config_mirror=mirror, timeout=5)
    message = str(info.value)
    assert f"mirror file {mirror / 'toy/corrupt.bin'}: checksum mismatch" in message and "HTTP 404" in message
    _assert_nothing_left(dest_dir)
