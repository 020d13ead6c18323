"""The names a Slurm job gives, checked by one rule (``core/operations/node_fit.py``) for
``fs submit`` (``check_slurm_fields``: with where to fix them and what sbatch prints) and
for the state's and the imports' check (``check_jobs_against_config``: the source named)."""

from __future__ import annotations

import pytest

from fairshare_cli.core.config import AccountSpec, Config, PartitionSpec, QosSpec
from fairshare_cli.core.jobs import Job
from fairshare_cli.core.operations.node_fit import NodeFit
from fairshare_cli.core.operations.queue import check_slurm_fields
from fairshare_cli.core.operations.validate import check_jobs_against_config
from fairshare_cli.errors import InputError

CONFIG = Config(
    partitions={"batch": PartitionSpec(name="batch", default=True)},
    qos={"normal": QosSpec(name="normal")},
    accounts={"hep": AccountSpec(name="hep", users={"alice": 1})},
)
SBATCH = ' (sbatch: "Invalid account or account/partition combination specified")'


@pytest.mark.parametrize(
    ("fields", "at_submit", "in_state"),
    [
        pytest.param(
            {"partition": "batch,gpu"},
            'job 1: unknown partition "gpu" (see [partitions]: batch)',
            'F: job 1: unknown partition "gpu"',
            id="partition",
        ),
        pytest.param(
            {"qos": "gold"},
            'job 1: unknown QOS "gold" (see [qos]: normal)',
            'F: job 1: unknown QOS "gold"',
            id="qos",
        ),
        pytest.param(
            {"account": "cms"},
            'job 1: unknown account "cms" (see [accounts]: hep)',
            'F: job 1: unknown account "cms"',
            id="account",
        ),
        pytest.param(
            {"owner": "bob", "account": "hep"},
            f'job 1: user "bob" has no association in account "hep"{SBATCH}; add it to [accounts]',
            'F: job 1: user "bob" has no association in account "hep"',
            id="association in the account",
        ),
        pytest.param(
            {"owner": "bob", "qos": "normal"},
            f'job 1: user "bob" has no association{SBATCH}; add it to [accounts]',
            'F: job 1: user "bob" has no association',
            id="association in any account",
        ),
        pytest.param(
            {"partition": "gpu", "account": "cms"},
            'job 1: unknown partition "gpu" (see [partitions]: batch)',
            'F: job 1: unknown partition "gpu"',
            id="the partition first",
        ),
    ],
)
def test_both_checks_refuse_a_name_alike(
    fields: dict[str, str], at_submit: str, in_state: str
) -> None:
    job = Job(**{"id": "1", "owner": "alice", **fields})
    with pytest.raises(InputError) as submitted:
        check_slurm_fields(CONFIG, job)
    assert str(submitted.value) == at_submit
    with pytest.raises(InputError) as stored:
        check_jobs_against_config([({}, job)], CONFIG, "F")
    assert str(stored.value) == in_state


def test_a_job_of_no_slurm_name_needs_no_association() -> None:
    job = Job(id="1", owner="bob")
    check_slurm_fields(CONFIG, job)
    check_jobs_against_config([({}, job)], CONFIG, "F")


def test_taken_gives_a_slurm_job_of_no_limit_its_first_partitions_default_time() -> None:
    """``_valid_job_part``: the primary partition (the first named, else the default)
    gives its ``DefaultTime``; a job with a limit, one whose partition has none, and an
    HTCondor job (no Slurm name, no association) are stored as given."""
    config = Config(
        partitions={
            "batch": PartitionSpec(name="batch", default=True, default_time=1200.0),
            "short": PartitionSpec(name="short", max_time=3000.0),
        },
        accounts={"hep": AccountSpec(name="hep", users={"alice": 1})},
    )
    fit = NodeFit(config)

    def limit(**fields: object) -> float | None:
        return fit.taken(Job(**{"id": "1", "owner": "alice", **fields})).time_limit  # type: ignore[arg-type]

    assert limit() == 1200.0
    assert limit(partition="batch,short") == 1200.0
    assert limit(partition="short,batch") is None
    assert limit(time_limit=60.0) == 60.0
    assert fit.taken(Job(id="1", owner="carol")).time_limit is None
