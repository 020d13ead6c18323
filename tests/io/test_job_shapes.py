"""The jobs reader's check that no job object gives a key twice: pieces certified by a
count of colons or commas (a flat shape) or settled against the sink's raw texts
(``fs taskqueues``), and a repeat in any piece refused with the exact reader's words."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from fairshare_cli.errors import InputError
from fairshare_cli.io.dirac_jobs import QUEUE_RECORD, TaskQueueKeys
from fairshare_cli.io.jobs import PIECE, load_jobs, read_jobs

#: Enough jobs for several pieces of the reader (each some PIECE bytes).
MANY = 3 * PIECE // 60


def _flat(i: int) -> str:
    return json.dumps({"id": f"{i}.0", "owner": "alice", "partition": "a,b", "nice": 0})


def _dirac(i: int) -> str:
    return json.dumps({"id": f"{i}.0", "owner": "alice", "dirac_group": "lhcb_user",
                       "submit_time": "2026-11-21T12:00:00Z",
                       "dirac_requirements": {"cpu_time": 10, "platform": "x"}})  # fmt: skip


def _write(tmp_path: Path, objects: list[str]) -> str:
    path = tmp_path / "jobs.json"
    path.write_text("[" + ",\n".join(objects) + "]")
    return str(path)


@pytest.mark.parametrize("make", [_flat, _dirac])
def test_a_key_given_twice_in_a_late_piece_is_refused(tmp_path: Path, make: object) -> None:
    """Pieces of one shape pass; the last job giving ``owner`` twice is named."""
    objects = [make(i) for i in range(MANY)]  # type: ignore[operator]
    path = _write(tmp_path, objects)
    assert len(load_jobs(path)) == MANY
    keys = read_jobs(path, TaskQueueKeys, label=path, source=path, record=QUEUE_RECORD)
    assert sum(keys.counts.values()) == MANY
    objects[-1] = objects[-1].replace('"owner": "alice"', '"owner": "alice", "owner": "bob"')
    _write(tmp_path, objects)
    said = f'{path}: job {MANY - 1}.0: the key "owner" is given twice; give each key once'
    with pytest.raises(InputError, match=f"^{said}$"):
        load_jobs(path)
    with pytest.raises(InputError, match=f"^{said}$"):
        read_jobs(path, TaskQueueKeys, label=path, source=path, record=QUEUE_RECORD)


def test_a_key_given_twice_inside_a_raw_object_is_refused(tmp_path: Path) -> None:
    """A nested object (``dirac_requirements``, kept as raw text) giving a key twice."""
    objects = [_dirac(i) for i in range(MANY)]
    objects[7] = objects[7].replace('"cpu_time": 10', '"cpu_time": 10, "cpu_time": 20')
    path = _write(tmp_path, objects)
    with pytest.raises(InputError, match=r'job 7\.0: the key "cpu_time" is given twice '):
        read_jobs(path, TaskQueueKeys, label=path, source=path, record=QUEUE_RECORD)
