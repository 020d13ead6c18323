"""A big state's queue kept as its JSON text until read (``io/state.py``, ``LazySection``):
the same raw JSON, the same state written back, the same errors as reading it whole; and
``fs sprio`` reads it straight into its records, printing what it prints from the file."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import msgspec  # (loaded, as for any state big enough to keep a queue: msgspec reads it)
import pytest

from fairshare_cli.core.state import LazySection, state_to_json
from fairshare_cli.errors import StateError
from fairshare_cli.io import state as state_io
from fairshare_cli.io.state import load_state, save_state
from tests.cli.conftest import bench_pool

NOW = "2026-11-21T12:00:00Z"


def _state_with_queue(tmp_path: Path, queue_text: str) -> Path:
    path = tmp_path / "state.json"
    path.write_text(
        '{"format": "fairshare-cli state", "schema_version": 1, "accountant": {}, '
        f'"jobs": {queue_text}}}',
        encoding="utf-8",
    )
    return path


QUEUE = [
    {"id": "1", "owner": "alice", "submit_time": 1795258800.0, "nice": 0},
    {"id": "2", "owner": 'b"ob', "request_cpus": 4, "prio": -0.0, "t": 1e300},
]


@pytest.mark.parametrize("digits", [21, 40, 400])
def test_a_queue_msgspec_refuses_reads_as_the_standard_library_reads_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, digits: int
) -> None:
    """An integer beyond 64 bits, kept as text or not: the queue reads as ``json.loads``
    reads the whole state."""
    number = "9" * digits
    path = _state_with_queue(tmp_path, '[{"id": "1", "owner": "a", "n": ' + number + "}]")
    monkeypatch.setattr(state_io, "LAZY_FROM", 0)
    assert load_state(path).section("jobs") == [{"id": "1", "owner": "a", "n": int(number)}]


def test_a_kept_queue_reads_and_writes_as_a_decoded_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert msgspec.json  # (see the import)
    path = _state_with_queue(tmp_path, json.dumps(QUEUE))
    eager = load_state(path)
    monkeypatch.setattr(state_io, "LAZY_FROM", 0)
    lazy = load_state(path)
    assert isinstance(lazy.sections["jobs"], LazySection)
    assert lazy.section_text("jobs") is not None and eager.section_text("jobs") is None
    assert lazy.section("jobs") == eager.section("jobs") == json.loads(path.read_text())["jobs"]
    assert repr(lazy.section("jobs")) == repr(eager.section("jobs"))  # -0.0, every digit
    assert state_to_json(lazy) == state_to_json(eager)
    out_eager, out_lazy = tmp_path / "eager.json", tmp_path / "lazy.json"
    save_state(out_eager, eager)
    save_state(out_lazy, load_state(path))
    assert out_lazy.read_bytes() == out_eager.read_bytes()
    kept = lazy.with_section("accountant", {"x": 1})
    assert kept.sections["jobs"] is lazy.sections["jobs"]


@pytest.mark.parametrize(
    ("bad", "words"),
    [
        ("1e999", "holds the number 1e999"),
        ("NaN", "holds the number NaN"),
        ('"\udcff"', "not valid JSON"),
    ],
    ids=["infinite", "nan", "not-utf8"],
)
def test_a_kept_queue_that_does_not_read_says_what_reading_it_whole_says(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, bad: str, words: str
) -> None:
    text = '[{"id": "1", "owner": "alice", "nice": ' + bad + "}]"
    path = tmp_path / "state.json"
    path.write_bytes(
        b'{"format": "fairshare-cli state", "schema_version": 1, "jobs": '
        + text.encode("utf-8", "surrogateescape")
        + b"}"
    )
    with pytest.raises(StateError) as eager:
        load_state(path)
    monkeypatch.setattr(state_io, "LAZY_FROM", 0)
    with pytest.raises(StateError) as lazy:
        load_state(path).section("jobs")  # (refused on reading, or on reading the queue)
    assert str(lazy.value) == str(eager.value)
    assert words in str(lazy.value)


@pytest.fixture(scope="module")
def pool(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return bench_pool(tmp_path_factory.mktemp("lazy-queue"), 200, 300)


def _submitted(pool: Path, tmp_path: Path, run: Any) -> tuple[Path, Path]:
    """A copy of the pool's state with its jobs submitted, and that queue as a file."""
    state = tmp_path / "state.json"
    state.write_bytes((pool / "state.json").read_bytes())
    jobs = json.loads((pool / "jobs.json").read_text())
    for job in jobs:  # fs submit takes Slurm's site factors only
        job.pop("site_factor", None)
    queue = tmp_path / "queue.json"
    queue.write_text(json.dumps(jobs))
    done = run("submit", "--file", str(queue), "--config", str(pool / "pool.toml"),
               "--state", str(state), "--now", NOW)  # fmt: skip
    assert done.exit_code == 0, done.stderr
    return state, queue


@pytest.mark.parametrize("options", [["-l"], ["-l", "--json"], ["-l", "-S", "-Y"]])
def test_sprio_reads_a_kept_queue_as_the_same_jobs_file(
    pool: Path, tmp_path: Path, run: Any, monkeypatch: pytest.MonkeyPatch, options: list[str]
) -> None:
    state, queue = _submitted(pool, tmp_path, run)
    common = ["--config", str(pool / "pool.toml"), "--state", str(state), "--now", NOW]
    monkeypatch.setattr(state_io, "LAZY_FROM", 0)
    from_state = run("sprio", *options, *common)
    from_file = run("sprio", *options, *common, "--jobs-file", str(queue))
    assert from_state.exit_code == from_file.exit_code == 0, from_state.stderr
    assert from_state.stdout == from_file.stdout
    assert from_state.stdout.count("\n") > 300


@pytest.mark.parametrize("options", [["-l"], ["-l", "--json"]])
def test_sprio_lists_a_kept_queue_in_halves_as_one_process(
    pool: Path, tmp_path: Path, run: Any, monkeypatch: pytest.MonkeyPatch, options: list[str]
) -> None:
    """On real output files, the state's queue in halves prints what one process prints."""
    from fairshare_cli.cli import sprio_halves
    from fairshare_cli.cli.main import cli
    from fairshare_cli.io import forked_half

    state, _ = _submitted(pool, tmp_path, run)
    monkeypatch.setattr(state_io, "LAZY_FROM", 0)
    args = ["sprio", *options, "--config", str(pool / "pool.toml"), "--state", str(state),
            "--now", NOW]  # fmt: skip
    outputs = []
    for least, name in ((0, "halves"), (1 << 62, "one")):
        listed: list[bool] = []
        tried = sprio_halves.listed_in_halves

        def spy(*a: Any, _tried: Any = tried, _listed: Any = listed, **k: Any) -> bool:
            _listed.append(_tried(*a, **k))
            return bool(_listed[-1])

        out = tmp_path / f"{name}.txt"
        with out.open("w") as fh, monkeypatch.context() as m:
            if not forked_half.usable(fh):
                pytest.skip("no fork here, or a single CPU")
            m.setattr(sys, "stdout", fh)
            m.setattr(sprio_halves, "MIN_BYTES", least)
            m.setattr(sprio_halves, "listed_in_halves", spy)
            with pytest.raises(SystemExit) as ended:
                cli.main(args, prog_name="fs")
        assert ended.value.code in (0, None)
        assert listed == [least == 0]
        outputs.append(out.read_text())
    assert outputs[0] == outputs[1]
    assert outputs[0].count("\n") > 300
