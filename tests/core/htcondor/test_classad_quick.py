"""Conjunctions of numeric comparisons evaluated in Python give what classad2 gives, and
anything else is left to classad2 (random expressions of the grammar and around it, over
ads whose values are integers at and past 64 bits, reals, booleans, strings, expressions
and missing attributes)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from fairshare_cli.core.htcondor.classad_quick import quick_form
from fairshare_cli.core.htcondor.classads import Ad, Evaluator, rewrite_scopes, typed
from fairshare_cli.errors import InputError

NAMES = ["Memory", "Cpus", "RequestMemory", "Disk", "X"]
_values = st.one_of(
    st.integers(-5, 5000),
    st.sampled_from([2**53, 2**53 + 1, 2**63 - 1, -(2**63)]),  # classad2 holds 64 bits
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([2048.0, 0.5, 9007199254740992.0, -0.0, 0.0]),
    st.booleans(),
    st.sampled_from(["a", "2048"]),
)


@st.composite
def ads(draw: st.DrawFn) -> tuple[dict[str, object], dict[str, str]]:
    values: dict[str, object] = {}
    exprs: dict[str, str] = {}
    for name in NAMES:
        kind = draw(st.integers(0, 5))
        if kind == 0:
            continue  # missing
        if kind == 1:
            exprs[name] = draw(st.sampled_from(["1 + 1", "MY.Cpus * 2", "2048"]))
        else:
            values[name] = draw(_values)
    return values, exprs


_operand = st.one_of(
    st.sampled_from(["0", "1", "2048", "1024.5", "3000", "9007199254740993", "01", "1e3"]),
    st.builds(
        lambda scope, name: f"{scope}{name}",
        st.sampled_from(["MY.", "TARGET.", "", "my . ", "Target."]),
        st.sampled_from(NAMES),
    ),
    st.sampled_from(["-1", '"a"', "undefined", "isUndefined(X)", "(Cpus)"]),
)
_op = st.sampled_from(["<", "<=", ">", ">=", "==", "!=", "=?=", "||", "+"])


@st.composite
def exprs(draw: st.DrawFn, depth: int = 0) -> str:
    kind = draw(st.integers(0, 5 if depth < 2 else 2))
    if kind <= 1:
        return f"{draw(_operand)} {draw(_op)} {draw(_operand)}"
    if kind == 2:
        return draw(st.sampled_from(["true", "TRUE", "false"]))
    if kind == 3:
        return f"({draw(exprs(depth + 1))})"
    sep = draw(st.sampled_from(["&&", "&&", "&&", "||"]))
    return f"{draw(exprs(depth + 1))} {sep} {draw(exprs(depth + 1))}"


@settings(max_examples=1500, deadline=None)
@given(exprs(), ads(), ads())
def test_quick_form_gives_what_classad2_gives(
    text: str,
    mine: tuple[dict[str, object], dict[str, str]],
    theirs: tuple[dict[str, object], dict[str, str]],
) -> None:
    ev = Evaluator()
    my = Ad(mine[0], mine[1], ev, "my")
    target = Ad(theirs[0], theirs[1], ev, "target")
    try:
        compiled = ev.compile(text, my.names, "test")
    except InputError:  # not an expression: nothing to compare
        return
    rewritten, _, _ = rewrite_scopes(text, my.names)
    form = quick_form(rewritten, my.names)
    if form is None:
        return
    quick = form.evaluate(my, target)
    if quick is None:
        return
    real = compiled.tree.eval(scope=my.classad, target=target.classad)
    assert typed(quick) == typed(real), (text, mine, theirs)


def test_the_startd_and_job_requirements_take_the_quick_form() -> None:
    """The negotiate benchmark's expressions: the job's, and the startd's
    ``(START) && (WithinResourceLimits)``; both decided here on numbers, not on a string."""
    slot_names = frozenset({"cpus", "memory"})
    startd = (
        "(true) && (MY.Cpus > 0 && TARGET.RequestCpus <= MY.Cpus && MY.Memory > 0 && "
        "TARGET.RequestMemory <= MY.Memory)"
    )
    form = quick_form(startd, slot_names)
    assert form is not None and len(form.atoms) == 4
    ev = Evaluator()
    slot = Ad({"Cpus": 1, "Memory": 2048}, {}, ev, "slot")
    job = Ad({"RequestCpus": 1, "RequestMemory": 2048.5}, {}, ev, "job")
    assert form.evaluate(slot, job) is False
    job_form = quick_form("TARGET.Memory >= MY.RequestMemory", frozenset({"requestmemory"}))
    assert job_form is not None and job_form.evaluate(job, slot) is False
    named = Ad({"Cpus": 1, "Memory": "2048"}, {}, ev, "slot")
    assert form.evaluate(named, job) is None  # a string: classad2 decides
    for other in ("MY.Cpus > 0 || true", "MY.Cpus =?= 1", "-MY.Cpus < 0", "f(MY.Cpus) > 0"):
        assert quick_form(other, slot_names) is None


def test_an_integer_meets_a_real_as_two_reals() -> None:
    """``coerceToNumber``: 2**53 + 1 against the real 2**53 is converted to a real first,
    (2**53), so ``>`` is false where Python's exact comparison says true."""
    ev = Evaluator()
    slot = Ad({"Memory": 2**53 + 1}, {}, ev, "slot")
    job = Ad({"RequestMemory": float(2**53)}, {}, ev, "job")
    text = "TARGET.Memory > MY.RequestMemory"
    form = quick_form(text, job.names)
    assert form is not None
    real = ev.compile(text, job.names, "job").tree.eval(scope=job.classad, target=slot.classad)
    assert form.evaluate(job, slot) is False and real is False
