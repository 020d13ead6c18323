"""``fs submit``'s job object from its options and ``--set``s (cli/submit_objects.py)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from fairshare_cli.cli.main import cli
from tests.conftest import REPO


def _sample(tmp_path: Path) -> list[str]:
    """The sample pool's options, on a copy of its state."""
    state = tmp_path / "state.json"
    shutil.copy(REPO / "sample_configs" / "sample-state.json", state)
    return ["--config", str(REPO / "sample_configs" / "pool.toml"), "--state", str(state),
            "--now", "2026-11-21T12:00:00Z"]  # fmt: skip


@pytest.mark.parametrize(
    ("args", "said"),
    [
        pytest.param(
            ["--set", "id=5.0", "--id", "6"],
            "--id and --set id both give the job's id: give one of them",
            id="id",  # was cluster 5: --set won
        ),
        pytest.param(
            ["--count", "3", "--set", "count=2"],
            "--count and --set count both give the job's count: give one of them",
            id="count",  # was 3 jobs: --count won
        ),
        pytest.param(
            ["--owner", "bob", "--set", "owner=alice"],
            "--owner and --set owner both give the job's owner: give one of them",
            id="owner",  # was one of them, without a word
        ),
        pytest.param(
            ["--count", "1", "--set", "count=1"],
            "--count and --set count both give the job's count: give one of them",
            id="count-given-as-its-default",
        ),
        pytest.param(
            ["--cpus=2", "--set= request_cpus =4", "--id=3", "--set=id=4"],
            "--id and --set id, --cpus and --set request_cpus each give one job field "
            "twice: give one of each pair",
            id="other-spellings",
        ),
        pytest.param(
            ["--time-limit", "0", "--set", "time_limit=60"],
            "--time-limit and --set time_limit both give the job's time_limit: give one of them",
            id="time-limit",
        ),
        pytest.param(
            ["--owner", "bob", "--set", "id=5", "--set", "id=6"],
            "--set id=5 and --set id=6 both give the job's id: give one of them",
            id="two-sets",  # was cluster 6: the last won
        ),
        pytest.param(
            ["--owner", "bob", "--set", "request_cpus=2", "--set= request_cpus =2"],
            "--set request_cpus=2 and --set  request_cpus =2 both give the job's "
            "request_cpus: give one of them",
            id="two-sets-spelt-apart",
        ),
    ],
)
def test_submit_refuses_a_field_given_twice(tmp_path: Path, args: list[str], said: str) -> None:
    """An option and a ``--set`` of the same job field (however spelt: ``--id=3``,
    ``--set=id=4``, a field with spaces around it, an option given as its default), or two
    ``--set`` of one field, are refused in one line naming both, exit 2, the state as it
    was; one of them used to win without a word (``--set`` for --id, the option for
    --count, the last of two ``--set``)."""
    common = _sample(tmp_path)
    before = Path(common[3]).read_bytes()
    result = CliRunner().invoke(cli, ["submit", *args, *common], prog_name="fs")
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == f"fs: error: {said} (see 'fs submit --help')\n"
    assert Path(common[3]).read_bytes() == before


def test_submit_takes_a_set_of_a_field_no_option_gives(tmp_path: Path) -> None:
    """``--set`` of a field whose option is not given (the owner, the count) still gives it:
    ``fs submit --set owner=alice --set count=2 --id 6 -v`` queues alice's jobs 6.0, 6.1."""
    common = _sample(tmp_path)
    args = ["submit", "--set", "owner=alice", "--set", "count=2", "--id", "6", "-v"]
    result = CliRunner().invoke(cli, [*args, *common])
    assert (result.exit_code, result.stdout) == (0, "Submitted 2 jobs as cluster 6: 6.0, 6.1\n")
    jobs = json.loads(Path(common[3]).read_text())["jobs"]
    assert [(job["id"], job["owner"]) for job in jobs] == [("6.0", "alice"), ("6.1", "alice")]


@pytest.mark.parametrize(
    ("item", "field", "stored"),
    [
        pytest.param("requirements=true", "requirements", "true", id="requirements"),
        pytest.param("rank=1", "rank", "1", id="rank"),
        pytest.param("concurrency_limits=1", "concurrency_limits", "1", id="limits"),
        pytest.param("dirac_group=2024", "dirac_group", "2024", id="dirac_group"),
    ],
)
def test_a_json_scalar_on_a_text_field_is_its_text(
    tmp_path: Path, item: str, field: str, stored: str
) -> None:
    """fs submit --owner bob --set requirements=true said "--set requirements: expected a
    string, got True" (Python's word for JSON's true): VALUE is "JSON or plain text", and
    for a field that takes text only (a ClassAd expression, a name) the text is meant."""
    common = _sample(tmp_path)
    args = ["submit", "--owner", "bob", "--set", item, "--id", "6", "-v"]
    result = CliRunner().invoke(cli, [*args, *common])
    assert (result.exit_code, result.stdout) == (0, "Submitted 1 job as cluster 6: 6\n")
    (job,) = json.loads(Path(common[3]).read_text())["jobs"]
    assert job[field] == stored


def test_a_json_scalar_a_field_refuses_as_text_too_is_refused(tmp_path: Path) -> None:
    """A whole-number field given 'true' is refused as before (its text is no number)."""
    common = _sample(tmp_path)
    before = Path(common[3]).read_bytes()
    result = CliRunner().invoke(
        cli, ["submit", "--owner", "bob", "--set", "request_cpus=true", *common]
    )
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == "fs: error: --set request_cpus: expected a whole number, got true\n"
    assert Path(common[3]).read_bytes() == before


@pytest.mark.parametrize(
    ("item", "said"),
    [
        pytest.param("dirac_requirements={cpu_time=500}", "--set dirac_requirements: expected "
                     "an object: {cpu_time=500} is not JSON, which --set reads VALUE as",
                     id="toml-table"),
        pytest.param("dirac_requirements=[500]", "--set dirac_requirements: expected an object",
                     id="json-list"),
    ],
)  # fmt: skip
def test_an_object_written_as_toml_is_told_set_reads_json(
    tmp_path: Path, item: str, said: str
) -> None:
    """``fs submit --owner bob --set dirac_requirements={cpu_time=500}`` (TOML, as ``fs
    whatif --set`` reads values) said "expected an object" alone; it says the value is no
    JSON. A JSON value of the wrong kind is refused as before; nothing is written."""
    common = _sample(tmp_path)
    before = Path(common[3]).read_bytes()
    result = CliRunner().invoke(cli, ["submit", "--owner", "bob", "--set", item, *common])
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == f"fs: error: {said}\n"
    assert Path(common[3]).read_bytes() == before
    good = CliRunner().invoke(cli, ["submit", "--owner", "bob", "--set",
                                    'dirac_requirements={"cpu_time": 500}', *common])  # fmt: skip
    assert good.exit_code == 0, good.stderr
