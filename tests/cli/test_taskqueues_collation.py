"""``fs taskqueues`` with names as MariaDB holds and compares them, and DIRAC's special words.

DIRAC 9.1.22 creates TaskQueueDB's tables with ``DEFAULT CHARSET=utf8mb4`` (DIRAC's
``MySQL._createTables``), so names compare under MariaDB 10.11's ``utf8mb4_general_ci``
(weights as ``WEIGHT_STRING`` gives them: letters without case or accents, ``é`` = ``E``,
``ö`` = ``O``, ``ü`` = ``U``; every character beyond U+FFFF, an emoji, as one), and any
Unicode name is held. Numbers are derived by hand from ``TaskQueueDB.py``
(``recalculateTQSharesForAll`` / ``recalculateTQSharesForEntity`` / ``calculate_priority``)
and ``JobScheduling.__getSitesRequired``.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

NOW = "2026-11-21T12:00:00Z"
CONFIG = """
[dirac.groups.user]
job_share = 1000
[dirac.groups.physique]
job_share = 600
[dirac.groups.prod]
job_share = 1000
job_sharing = true
"""


def job(n: int, owner: str = "alice", group: str = "user", **req: Any) -> dict[str, Any]:
    return {
        "id": f"{n}.0",
        "owner": owner,
        "dirac_group": group,
        "dirac_requirements": {"cpu_time": 3600, **req},
    }


@pytest.fixture
def taskqueues(
    run: Callable[..., Any], write_config: Callable[..., Path], tmp_path: Path
) -> Callable[..., Any]:
    """Run ``fs taskqueues --json`` over jobs; the result object."""

    def go(jobs: list[dict[str, Any]], *extra: str) -> Any:
        path = tmp_path / "jobs.json"
        path.write_text(json.dumps(jobs), encoding="utf-8")
        args = ["--config", str(write_config(CONFIG)), "--state", str(tmp_path / "s.json")]
        return run("taskqueues", *args, "--now", NOW, "--jobs-file", str(path), *extra)

    return go


def rows(result: Any) -> list[tuple[Any, ...]]:
    assert result.exit_code == 0, result.stderr
    return [(r["owner"], r["group"], r["jobs"], r["priority"]) for r in json.loads(result.stdout)]


def test_owners_fold_case_and_accents(taskqueues: Callable[..., Any]) -> None:
    """'JOSE' joins the queue 'José' made (é weighs as E); 'jorg' joins 'Jörg' (ö weighs as
    O); 'MULLER' at 'lcg.zurich.CH' joins 'Müller' at 'LCG.Zürich.ch' (ü weighs as U).
    ``GROUP BY Owner`` sees three owners: 1000/3 = 333.3333 each (stored so, read back
    333.333), one queue each (average 1). Under DIRAC 8's latin1 tables ``ö`` was a letter
    of its own and ``ü`` weighed as Y: fs made four owners of them, 250 each."""
    result = taskqueues([
        job(1, "José"), job(2, "JOSE"), job(3, "Jörg"), job(4, "jorg"),
        job(5, "Müller", sites=["LCG.Zürich.ch"]), job(6, "MULLER", sites=["lcg.zurich.CH"]),
    ], "--json")  # fmt: skip
    assert rows(result) == [
        ("José", "user", 2, 333.333),
        ("Jörg", "user", 2, 333.333),
        ("Müller", "user", 2, 333.333),
    ]
    assert result.stderr == ""


def test_letters_of_scripts_mariadb_does_not_fold_stay_apart(
    taskqueues: Callable[..., Any],
) -> None:
    """MariaDB 10.11's utf8mb4_general_ci folds only Latin, Greek, Cyrillic, Armenian and a
    few symbol blocks: 'أحمد' (alef with hamza) is not 'احمد' (alef), and the Georgian
    'ნინო' is not its Mtavruli capitals 'ᲜᲘᲜᲝ'. Four owners: 1000/4 = 250 each, one queue
    each; the second 'ნინო' joins the first. DIRAC 9.1.22's TaskQueueDB on MariaDB
    10.11.19 (insertJob of the five jobs, then recalculateTQSharesForAll) gave the same four
    queues at 250.0. fs folded both pairs before (two owners, 500 each)."""
    owners = ["أحمد", "احمد", "ნინო", "ᲜᲘᲜᲝ", "ნინო"]
    result = taskqueues([job(n, owner) for n, owner in enumerate(owners, 1)], "--json")
    assert rows(result) == [
        ("أحمد", "user", 1, 250.0),
        ("احمد", "user", 1, 250.0),
        ("ნინო", "user", 2, 250.0),
        ("ᲜᲘᲜᲝ", "user", 1, 250.0),
    ]


def test_group_spelt_with_an_accent_is_one_group(taskqueues: Callable[..., Any]) -> None:
    """'physique' and 'physiqué' are one OwnerGroup. ``SELECT DISTINCT(OwnerGroup)`` gives
    the spelling of the first queue in the TQOwner index (owner, group, CPU time): alice's.
    alice in 'physique': the configured 600, split over alice and bob: 300 each. alice in
    'physiqué': a name ``/Registry/Groups`` does not list, so the default 1000: 500 each."""
    listed = taskqueues([job(1, "alice", "physique"), job(2, "bob", "physiqué")], "--json")
    assert rows(listed) == [("alice", "physique", 1, 300.0), ("bob", "physiqué", 1, 300.0)]
    assert listed.stderr == ""
    unlisted = taskqueues([job(1, "alice", "physiqué"), job(2, "bob", "physique")], "--json")
    assert rows(unlisted) == [("alice", "physiqué", 1, 500.0), ("bob", "physique", 1, 500.0)]
    assert "dirac_group 'physiqué' (2 waiting jobs) is not in [dirac.groups]" in unlisted.stderr


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        pytest.param(job(2, tags=["GPU", "gpu"]), "dirac_requirements.tags: names that "
                     "differ only in case or accents are one value", id="one-tag-twice"),
        pytest.param(job(2, sites=["LCG.Zürich.ch", "LCG.ZURICH.ch"]), "dirac_requirements.sites: "
                     "names that differ only in case or accents are one value", id="one-site-twice"),
        pytest.param(job(2, sites=["A"], banned_sites=["A"]), "dirac_requirements: every site "
                     "in sites is in banned_sites; DIRAC's JobManager refuses the job (sites "
                     "and bannedSites are mutually exclusive)", id="every-site-banned"),
        pytest.param(job(2, sites=["ANY", "A"], banned_sites=["A"]), "dirac_requirements: "
                     "every site in sites but ANY is in banned_sites; DIRAC's JobScheduling "
                     "stops the job (Impossible site requirement)", id="any-and-banned-sites"),
        pytest.param(job(2, sites=["any"]), "dirac_requirements.sites: 'any': DIRAC's "
                     "JobManager refuses the job (Invalid sites: any); any site is 'ANY', "
                     "spelt so", id="any-in-lower-case"),
        pytest.param(job(2, sites=["LCG.CERN.cern", "Any"]), "dirac_requirements.sites: "
                     "'Any': DIRAC's JobManager refuses the job (Invalid sites: Any)",
                     id="any-capitalised"),
    ],
)  # fmt: skip
def test_what_taskqueuedb_cannot_hold_is_refused(
    taskqueues: Callable[..., Any], tmp_path: Path, bad: dict[str, Any], message: str
) -> None:
    result = taskqueues([job(1), bad])
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr.startswith(f"fs: error: {tmp_path / 'jobs.json'}: job 2.0: ")
    assert message in result.stderr
    assert len(result.stderr.splitlines()) == 1


def test_a_quote_or_backslash_in_a_group_is_held(
    run: Callable[..., Any], write_config: Callable[..., Path], tmp_path: Path
) -> None:
    """DIRAC 9.1's TaskQueueDB passes the group as a query parameter (``OwnerGroup=%s`` in
    ``recalculateTQSharesForEntity`` and ``__setPrioritiesForEntity``), so ``it's`` and
    ``a\\b`` get their queues' priorities as any group. By hand: ``it's`` (JobShare 600, no
    JobSharing) splits 600 over alice and bob, 300 each; ``a\\b`` is not listed, so carol's
    one queue gets DIRAC's default 1000; Share = 300/1600 = 0.1875 and 1000/1600 = 0.625."""
    config = write_config('[dirac.groups."it\'s"]\njob_share = 600\n')
    jobs = [job(1, "alice", "it's"), job(2, "bob", "it's"), job(3, "carol", "a\\b")]
    path = tmp_path / "jobs.json"
    path.write_text(json.dumps(jobs), encoding="utf-8")
    state = str(tmp_path / "s.json")
    base = ("--config", str(config), "--state", state, "--now", NOW)
    listed = run("taskqueues", *base, "--jobs-file", str(path), "--json")
    assert rows(listed) == [
        ("alice", "it's", 1, 300.0),
        ("bob", "it's", 1, 300.0),
        ("carol", "a\\b", 1, 1000.0),
    ]
    assert [r["share"] for r in json.loads(listed.stdout)] == [0.1875, 0.1875, 0.625]
    assert listed.stderr == (
        "fs: warning: dirac_group 'a\\b' (1 waiting job) is not in [dirac.groups]; "
        "DIRAC gives it the default share 1000\n"
    )
    submitted = run("submit", *base, "--file", str(path))
    assert submitted.exit_code == 0, submitted.stderr
    assert rows(run("taskqueues", *base, "--json")) == rows(listed)


def test_any_unicode_name_fits(taskqueues: Callable[..., Any]) -> None:
    """utf8mb4 holds '€', '李' and emoji, which DIRAC 8's latin1 tables refused ('李' and
    emoji). Every character beyond U+FFFF weighs the same, so 'X🚀' is the owner 'x😀' and
    joins its queue: three owners, 1000/3 each, read back 333.333."""
    assert rows(
        taskqueues([job(1, "€uro"), job(2, "李"), job(3, "x😀"), job(4, "X🚀")], "--json")
    ) == [
        ("€uro", "user", 1, 333.333),
        ("李", "user", 1, 333.333),
        ("x😀", "user", 2, 333.333),
    ]


def test_an_owner_named_all_with_several_queues(taskqueues: Callable[..., Any]) -> None:
    """``recalculateTQSharesForAll`` calls ``recalculateTQSharesForEntity("all", group)``.

    In 'user', ``GROUP BY Owner`` gives all (2 queues) and bob (1): 1000/2 = 500 each; but
    ``"all" in owners and owners["all"] > 1``, so only all's queues are set: averages 1 and
    1, T = 2: 250 each. bob's queue keeps what ``insertJob`` set when it was made (bob new
    to the group, so every owner is recalculated, with the default share 1000: 1000/2 =
    500, bob's one queue 500). In the JobSharing 'prod' the user is irrelevant: three
    queues, 1000/3 each."""
    result = taskqueues([
        job(1, "all"), job(2, "all", cpu_time=86400), job(3, "bob"),
        job(4, "all", "prod"), job(5, "all", "prod", cpu_time=86400), job(6, "carl", "prod"),
    ], "--json")  # fmt: skip
    assert rows(result) == [
        ("all", "user", 1, 250.0),
        ("all", "user", 1, 250.0),
        ("bob", "user", 1, 500.0),
        ("all", "prod", 1, 333.333),
        ("all", "prod", 1, 333.333),
        ("carl", "prod", 1, 333.333),
    ]
    assert result.stderr == (
        "fs: warning: dirac_group 'user' has an owner named 'all' with several task queues: "
        "DIRAC's recalculateTQSharesForAll then sets only all's priorities; its other 1 "
        "queue keeps what insertJob's recalculation set when a queue of the group was made "
        "(the default share 1000, uncorrected, over the jobs queued so far), as shown, "
        "unless a TaskQueuesAgent cycle ran before all had a second queue\n"
    )


ALL_CONFIG = """
[dirac.groups.user]
job_share = 600
"""
ALL_JOBS = [
    {**job(1, "bob", cpu_time=86400), "user_priority": 2},
    job(2, "all", cpu_time=86400),
    {**job(3, "carl", cpu_time=86400), "user_priority": 0},
    job(4, "carl"),
    job(5, "all"),
    {**job(6, "bob", cpu_time=86400), "user_priority": 4},
    {**job(7, "carl"), "user_priority": 10},
]


@pytest.mark.parametrize("source", ["jobs-file", "state"])
def test_queues_beside_all_keep_what_insert_job_set(
    run: Callable[..., Any], write_config: Callable[..., Path], tmp_path: Path, source: str
) -> None:
    """The other owners' queues hold what ``insertJob``'s own recalculation (TaskQueueDB 9.1,
    in the service that queues the job: no ``__groupShares``, so the default 1000, no
    correction) last set, over the jobs queued so far. By hand, job by job:

    1. bob makes TQ1 (bob new): owners {bob}, 1000: TQ1 (average 2) = 1000.
    2. all makes TQ2 (all has 1 queue): every owner, 1000/2 = 500: TQ1 500, TQ2 500.
    3. carl makes TQ3 (new): 1000/3 = 333.333 each; TQ1 333.3333, TQ3 (priority 0, 1e-5
       alone) 333.3333, stored 333.333.
    4. carl makes TQ4 (carl has 2 queues): carl's only: T = 1e-5 + 1 = 1.00001; TQ3 =
       333.3333/1.00001 x 1e-5 = 0.0033 (%.4f), TQ4 = 333.3300.
    5. all makes TQ5 (2 queues): all's only, 333.333/2 each.
    6. bob (priority 4) joins TQ1 and 7. carl (priority 10) joins TQ4: nothing recalculated.
    Then the agent: JobShare 600 over {bob, all, carl} = 200, only all's queues: TQ2 and TQ5
    average 1 each: 100 each. Share = 333.333 / 866.6633 (the sum of the five read back)."""
    config = str(write_config(ALL_CONFIG))
    base = ("--config", config, "--state", str(tmp_path / "s.json"), "--now", NOW)
    path = tmp_path / "jobs.json"
    path.write_text(json.dumps(ALL_JOBS), encoding="utf-8")
    if source == "state":
        assert run("submit", *base, "--file", str(path)).exit_code == 0
        result = run("taskqueues", *base, "--json")
    else:
        result = run("taskqueues", *base, "--jobs-file", str(path), "--json")
    assert rows(result) == [
        ("bob", "user", 2, 333.333),
        ("all", "user", 1, 100.0),
        ("carl", "user", 1, 0.0033),
        ("carl", "user", 2, 333.33),
        ("all", "user", 1, 100.0),
    ]
    assert json.loads(result.stdout)[0]["share"] == 333.333 / (
        333.333 + 100 + 0.0033 + 333.33 + 100
    )
    assert "its other 3 queues keep what insertJob's recalculation set" in result.stderr


def test_a_job_sharing_spelling_of_the_group_sets_every_queue_at_insert_time(
    run: Callable[..., Any], write_config: Callable[..., Path], tmp_path: Path
) -> None:
    """The Registry lists 'User' (JobSharing, 100) and 'user' (3333), one group under the
    collation. ``insertJob`` recalculates with the job's spelling, whose properties the
    Registry reads by exact name. By hand (insert time: the default 1000, uncorrected):

    1. all makes TQ1 in 'user' (priority 0, 1e-5): owners {all}: TQ1 = 1000.
    2. alice makes TQ2 in 'user' (1e-5): owners {all, alice}: 500 each.
    3. all makes TQ3 in 'user' (1): all has 2 queues, only all's: 500 over T = 1.00001.
    4. jorg makes TQ4 in 'User' (1e-5): JobSharing, so ``OwnerGroup='User'`` takes all four
       queues as one entity with 1000: T = 1.00003; TQ1, TQ2, TQ4 = 1000 x 1e-5 / 1.00003 =
       0.0100, TQ3 = 999.97.
    Then the agent: ``DISTINCT(OwnerGroup)`` gives 'user' (alice's queue comes first in the
    TQOwner index), 3333 over {alice, all, jorg} = 1111, all has 2 queues, only all's: TQ1 =
    1111 x 1e-5 / 1.00001 = 0.0111, TQ3 = 1110.99; TQ2 and TQ4 keep 0.0100. fs gave them
    333.333 each (step 4 split over the owners, as 'user' without JobSharing would). DIRAC
    9.1.22 on MariaDB gives 0.0111, 0.01, 1110.99, 0.01."""
    config = write_config(
        "[dirac.groups.User]\njob_share = 100\njob_sharing = true\n"
        "[dirac.groups.user]\njob_share = 3333\n"
    )
    jobs = [
        {**job(1, "all", cpu_time=200000), "user_priority": 0},
        {**job(2, "alice", cpu_time=360, tags=["GPU"]), "user_priority": 0},
        job(3, "all", tags=["MultiProcessor"]),
        {**job(4, "jorg", "User", cpu_time=200000, platforms=["el8"]), "user_priority": 0},
    ]
    path = tmp_path / "jobs.json"
    path.write_text(json.dumps(jobs), encoding="utf-8")
    base = ("--config", str(config), "--state", str(tmp_path / "s.json"), "--now", NOW)
    result = run("taskqueues", *base, "--jobs-file", str(path), "--json")
    assert rows(result) == [
        ("all", "user", 1, 0.0111),
        ("alice", "user", 1, 0.01),
        ("all", "user", 1, 1110.99),
        ("jorg", "User", 1, 0.01),
    ]


@pytest.mark.parametrize(
    ("owner", "second_cpu"),
    [
        pytest.param("All", 86400, id="other-spelling"),  # Python's "all" in owners: False
        pytest.param("all", 3600, id="one-queue"),  # owners["all"] == 1
    ],
)
def test_an_owner_all_that_does_not_stop_the_recalculation(
    taskqueues: Callable[..., Any], owner: str, second_cpu: int
) -> None:
    """Every owner is set: 500 each, split over the owner's queues (T = 2 or 1)."""
    result = taskqueues(
        [job(1, owner), job(2, owner, cpu_time=second_cpu), job(3, "bob")], "--json"
    )
    expected = 250.0 if second_cpu != 3600 else 500.0
    got = rows(result)
    assert [r[3] for r in got] == [expected] * (len(got) - 1) + [500.0]
    assert result.stderr == ""


def test_any_site_and_banned_sites(taskqueues: Callable[..., Any]) -> None:
    """``__getSitesRequired`` drops 'ANY' and then the banned sites.

    Job 1 (ANY) and job 2 (no sites) share queue 1; job 3 (ANY, CERN) makes queue 2 at
    CERN; job 4 (CERN, RAL; RAL banned) makes queue 3 at CERN with RAL banned, which job 5
    (CERN; RAL banned) joins; job 6 (ANY; CERN banned) makes queue 4. The four differ only
    in sites and banned sites: 1000/4 each, then each gets their sum, 1000."""
    result = taskqueues([
        job(1, sites=["ANY"]), job(2), job(3, sites=["ANY", "LCG.CERN.cern"]),
        job(4, sites=["LCG.CERN.cern", "LCG.RAL.uk"], banned_sites=["LCG.RAL.uk"]),
        job(5, sites="LCG.CERN.cern", banned_sites=["LCG.RAL.uk"]),
        job(6, sites="ANY", banned_sites="LCG.CERN.cern"),
    ], "--json")  # fmt: skip
    assert result.exit_code == 0, result.stderr
    got = [
        (r["requirements"]["sites"], r["requirements"]["banned_sites"], r["jobs"], r["priority"])
        for r in json.loads(result.stdout)
    ]
    assert got == [
        ([], [], 2, 1000.0),
        (["LCG.CERN.cern"], [], 1, 1000.0),
        (["LCG.CERN.cern"], ["LCG.RAL.uk"], 2, 1000.0),
        ([], ["LCG.CERN.cern"], 1, 1000.0),
    ]


@pytest.mark.parametrize(
    ("bad", "shown"),
    [
        pytest.param(job(2, sites=["LCG.A.ch", "x\nLCG.B.ch"]), "'x\\nLCG.B.ch'", id="line-break"),
        pytest.param(job(2, tags=["\x1b[2JGPU"]), "'\\x1b[2JGPU'", id="terminal-escape"),
        pytest.param(job(2, platforms=["el\x009"]), "'el\\x009'", id="nul"),
    ],
)  # fmt: skip
def test_a_requirement_name_with_a_control_character_is_refused(
    taskqueues: Callable[..., Any], tmp_path: Path, bad: dict[str, Any], shown: str
) -> None:
    """``fs taskqueues --jobs-file jobs.json`` printed a site ``"x\\nLCG.B.ch"`` as a line
    break inside its row (the part after it a row of its own) and a tag ``"\\e[2JGPU"`` with
    its escape; utf8mb4 holds both, so TaskQueueDB's check let them by. Names in a table are
    one printable line: refused (exit 2), shown escaped. A space inside a name is printable
    and kept, as DIRAC keeps it (``List.fromChar`` strips only the ends)."""
    result = taskqueues([job(1), bad])
    assert (result.exit_code, result.stdout) == (2, "")
    key = next(k for k in ("sites", "tags", "platforms") if k in bad["dirac_requirements"])
    assert result.stderr == (
        f"fs: error: {tmp_path / 'jobs.json'}: job 2.0: dirac_requirements.{key}: "
        f"expected names without control characters, got {shown}\n"
    )
    spaced = taskqueues([job(1, tags=["GPU 2"])], "--json")
    assert json.loads(spaced.stdout)[0]["requirements"]["tags"] == ["GPU 2"]
