"""The state file: atomic, locked, and never silently reset."""

from __future__ import annotations

import json
import multiprocessing
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from fairshare_cli.core.state import State
from fairshare_cli.errors import RuntimeFailure, StateError
from fairshare_cli.io.state import load_state, save_state, state_lock


def test_missing_is_empty(tmp_path: Path) -> None:
    assert load_state(tmp_path / "none.json").sections == {}


def test_round_trip_and_format(tmp_path: Path) -> None:
    path = tmp_path / "sub" / "state.json"
    save_state(path, State(sections={"jobs": [{"id": "1.0", "owner": "a"}]}))
    text = path.read_text()
    assert text.endswith("\n")
    doc = json.loads(text)
    assert doc["schema_version"] == 1
    assert load_state(path).section("jobs") == [{"id": "1.0", "owner": "a"}]
    assert oct(path.parent.stat().st_mode & 0o777) == "0o700"
    assert [p.name for p in path.parent.iterdir()] == ["state.json"]


def test_the_file_is_the_standard_librarys_text(tmp_path: Path) -> None:
    """The state is written as bytes (not copied into a text first): exactly
    ``json.dumps(doc, indent=2, sort_keys=True)`` and a newline, in UTF-8, whether msgspec
    lays it out or (a name beyond ASCII, 1e-05) the standard library prints it."""
    for jobs in (
        [{"owner": "a", "id": "1.0", "submit_time": 1795258800.0}],
        [{"owner": "\u00e9", "id": "2", "run_time": 1e-05}],
    ):
        path = tmp_path / "state.json"
        save_state(path, State(sections={"jobs": jobs}))
        doc = {"format": "fairshare-cli state", "jobs": jobs, "schema_version": 1}
        want = json.dumps(doc, indent=2, sort_keys=True) + "\n"
        assert path.read_bytes() == want.encode("utf-8")


@pytest.mark.parametrize(
    ("content", "needle"),
    [
        pytest.param(
            '{"format": "fairshare-cli state", "schema_ver', "not valid JSON", id="truncated"
        ),
        pytest.param("", "empty", id="empty"),
        pytest.param('{"hello": 1}', "not a fairshare-cli state file", id="foreign"),
        pytest.param("[1, 2]", "not a fairshare-cli state file", id="list"),
        pytest.param(
            '{"format": "fairshare-cli state", "schema_version": 99}', "newer", id="newer"
        ),
    ],
)
def test_refused(tmp_path: Path, content: str, needle: str) -> None:
    path = tmp_path / "state.json"
    path.write_text(content)
    with pytest.raises(StateError, match=needle):
        load_state(path)
    assert path.read_text() == content


def test_failed_write_leaves_old_file(tmp_path: Path) -> None:
    path = tmp_path / "state.json"
    save_state(path, State(sections={"a": 1}))
    before = path.read_bytes()
    with pytest.raises(RuntimeFailure, match=r"JSON compliant.*nothing was written"):
        save_state(path, State(sections={"a": float("nan")}))
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["state.json"]


def _bump(path_text: str, n: int) -> None:
    path = Path(path_text)
    for _ in range(n):
        with state_lock(path):
            state = load_state(path)
            count = (state.section("counter") or 0) + 1
            save_state(path, state.with_section("counter", count))


def test_lock_serialises_writers(tmp_path: Path) -> None:
    path = tmp_path / "state.json"
    ctx = multiprocessing.get_context("fork")
    procs = [ctx.Process(target=_bump, args=(str(path), 25)) for _ in range(4)]
    for p in procs:
        p.start()
    for p in procs:
        p.join()
    assert all(p.exitcode == 0 for p in procs)
    assert load_state(path).section("counter") == 100
    assert os.path.exists(str(path) + ".lock")


def test_stale_temp_files_are_removed_by_the_next_writer(tmp_path: Path) -> None:
    """A writer killed between mkstemp and rename leaves .state.json.XXXX.tmp behind."""
    state = tmp_path / "state.json"
    stale = tmp_path / ".state.json.abc123.tmp"
    stale.write_text("{partial", encoding="utf-8")
    other = tmp_path / ".other.json.abc123.tmp"
    other.write_text("{}", encoding="utf-8")
    with state_lock(state):
        pass
    assert not stale.exists()
    assert other.exists()


def test_state_below_a_file_is_bad_input(tmp_path: Path) -> None:
    blocker = tmp_path / "afile"
    blocker.write_text("x", encoding="utf-8")
    with (
        pytest.raises(StateError, match=r"afile is a file, not a folder"),
        state_lock(blocker / "sub" / "state.json"),
    ):
        pass


_SMALL_STATE = (
    '{"format": "fairshare-cli state", "schema_version": 1, "x": {"a": 1, "b": 2.5},'
    ' "slurm": {"usage": {"g": {"u\\u00e9": 7887233.511355132, "v": 1e-7, "w": 123456789012345678}}},'
    ' "jobs": [{"id": "1.0", "owner": "al\\"ice", "prio": -0.0, "n": null, "t": true}]}'
)


def test_a_small_state_is_read_without_msgspec_as_msgspec_reads_it(tmp_path: Path) -> None:
    """Below ``MSGSPEC_FROM`` a fresh fs reads the state with the standard library (msgspec
    is not even imported); padded past it, msgspec reads the same document: the same
    sections, to the float (compared by repr, which shows -0.0 and every digit)."""
    import subprocess
    import sys

    from fairshare_cli.io import state as state_io

    small = tmp_path / "small.json"
    small.write_text(_SMALL_STATE, encoding="utf-8")
    big = tmp_path / "big.json"
    big.write_text(_SMALL_STATE + " " * state_io.MSGSPEC_FROM, encoding="utf-8")
    probe = (
        "import sys\nfrom pathlib import Path\nfrom fairshare_cli.io.state import load_state\n"
        "print(repr(load_state(Path(sys.argv[1])).sections), 'msgspec' in sys.modules)"
    )

    def read(path: Path) -> tuple[str, str]:
        out = subprocess.run(
            [sys.executable, "-c", probe, str(path)], capture_output=True, text=True, check=True
        )
        sections, msgspec_loaded = out.stdout.rsplit(" ", 1)
        return sections, msgspec_loaded.strip()

    small_read, big_read = read(small), read(big)
    assert small_read[1] == "False" and big_read[1] == "True"
    assert small_read[0] == big_read[0] == repr(load_state(big).sections)


def _state_with_queue(tmp_path: Path, queue: bytes, pad: int = 0) -> Path:
    """A state whose queue is ``queue`` (JSON text), padded with ``pad`` blanks."""
    path = tmp_path / "state.json"
    path.write_bytes(
        b'{"format": "fairshare-cli state", "schema_version": 1, "accountant": {}, '
        b'"jobs": ' + queue + b"}" + b" " * pad
    )
    return path


@pytest.mark.parametrize("digits", [21, 40, 400])
@pytest.mark.parametrize("pad", [0, 1 << 20])
def test_an_integer_beyond_64_bits_reads_as_the_standard_library_reads_it(
    tmp_path: Path, digits: int, pad: int
) -> None:
    """msgspec refuses it (a big state is read by msgspec): the state reads as
    ``json.loads`` reads it, small or big."""
    number = "9" * digits
    queue = '[{"id": "1", "owner": "a", "n": ' + number + "}]"
    path = _state_with_queue(tmp_path, queue.encode(), pad)
    assert load_state(path).section("jobs") == [{"id": "1", "owner": "a", "n": int(number)}]


def test_a_big_queue_reads_and_writes_back_as_its_json(tmp_path: Path) -> None:
    """A queue past a megabyte: the same raw JSON as ``json.loads`` (by repr: -0.0, every
    digit), and the state written back is the one a small state's copy writes."""
    queue = [
        {"id": "1", "owner": "alice", "submit_time": 1795258800.0, "nice": 0},
        {"id": "2", "owner": 'b"ob', "request_cpus": 4, "prio": -0.0, "t": 1e300},
    ] * 20_000
    text = json.dumps(queue)
    assert len(text) > 1 << 20
    path = _state_with_queue(tmp_path, text.encode())
    loaded = load_state(path)
    assert repr(loaded.section("jobs")) == repr(json.loads(text))
    out = tmp_path / "out.json"
    save_state(out, loaded)
    again = tmp_path / "again.json"
    save_state(again, State(sections={"accountant": {}, "jobs": json.loads(text)}))
    assert out.read_bytes() == again.read_bytes()


@pytest.mark.parametrize(
    ("bad", "words"),
    [
        ("1e999", "holds the number 1e999, expected finite numbers only"),
        ("NaN", "holds the number NaN, expected finite numbers only"),
        ('"\udcff"', "is not UTF-8 text (byte "),
    ],
    ids=["infinite", "nan", "not-utf8"],
)
@pytest.mark.parametrize("pad", [0, 1 << 20])
def test_a_queue_that_does_not_read_is_refused_in_one_line(
    tmp_path: Path, bad: str, words: str, pad: int
) -> None:
    """An infinite number, a NaN or bytes that are not UTF-8 in the state's queue: one
    message naming the file, for a small state as for a big one."""
    queue = '[{"id": "1", "owner": "alice", "nice": ' + bad + "}]"
    path = _state_with_queue(tmp_path, queue.encode("utf-8", "surrogateescape"), pad)
    with pytest.raises(StateError) as refused:
        load_state(path)
    message = str(refused.value)
    assert message.startswith(f"state file {path} {words}"), message
    assert message.endswith("; fix it or move it aside to start afresh"), message
    if "byte" in words:  # (where the byte is: it said 'line ?')
        offset = path.read_bytes().index(b"\xff")
        assert f"(byte {offset});" in message


def test_a_state_that_is_a_pipe_is_refused_before_a_lock_is_made(
    tmp_path: Path, run: Callable[..., Any]
) -> None:
    """fs submit --owner alice --state FIFO (or a device: /dev/null) made FIFO.lock beside
    it, then blocked reading the pipe (/dev/null: 'is empty (truncated?)'); it is refused at
    once, naming the path, and no lock is left (other sessions left /dev/null.lock)."""
    fifo = tmp_path / "state.json"
    os.mkfifo(fifo)
    config = Path(__file__).resolve().parents[2] / "sample_configs" / "pool.toml"
    result = run(
        "submit", "--owner", "alice", "--config", str(config), "--state", str(fifo),
        "--now", "2026-11-21T12:00:00Z",
    )  # fmt: skip
    assert result.exit_code == 2
    assert f"cannot write state file {fifo}: not a regular file" in result.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["state.json"]


def test_a_state_keeps_its_permissions(tmp_path: Path, run: Callable[..., Any]) -> None:
    """``fs setfactor`` on a state a group shares (0660) made it 0600: the rename put a
    private file in its place. A state keeps its mode; a new one is private."""
    repo = Path(__file__).resolve().parents[2] / "sample_configs"
    state = tmp_path / "state.json"
    state.write_bytes((repo / "sample-state.json").read_bytes())
    state.chmod(0o660)
    common = ["--config", str(repo / "pool.toml"), "--now", "2026-11-21T13:00:00Z"]
    line = ["setfactor", "alice@example.org", "2", "--create", *common]
    assert run(*line, "--state", str(state)).exit_code == 0
    assert state.stat().st_mode & 0o777 == 0o660
    new = tmp_path / "new.json"
    assert run(*line, "--state", str(new)).exit_code == 0
    assert new.stat().st_mode & 0o777 == 0o600


@pytest.mark.parametrize("pad", [0, 1 << 19], ids=["json", "msgspec"])
def test_a_key_given_twice_is_refused_naming_it(tmp_path: Path, pad: int) -> None:
    """fs never writes an object with a key twice; read, the last value won without a word
    (``"schema_version": 2, "schema_version": 1`` read as 1). Refused, by the standard
    library's reader and by msgspec's (a state past ``MSGSPEC_FROM``), left untouched."""
    path = tmp_path / "state.json"
    for text, where in (
        ('{"format": "fairshare-cli state", "schema_version": 2, "schema_version": 1}', "top"),
        (
            '{"format": "fairshare-cli state", "schema_version": 1, "accountant": {"records":'
            ' {"a@b": {"priority": 5.0, "priority": 0.5}}}}',
            "in accountant.records.a@b",
        ),
    ):
        content = text + " " * pad
        path.write_text(content)
        with pytest.raises(StateError) as caught:
            load_state(path)
        message = str(caught.value)
        assert "is given twice" in message and where in message, message
        assert path.read_text() == content
