#!/usr/bin/env python3
"""The thirteen challenges of Lab/Sources/ShrinkingChallenges with Hypothesis, on the same generators, counted the way
`lab bench --filter shrink` counts: over seeds 1..N, the runs that shrink to the documented minimum, and the median
number of property evaluations after the first failure (the final replay of the shrunk case not counted).

    python3 scripts/shrinking-challenge-hypothesis.py [SEEDS] [CHALLENGE...]

Needs Hypothesis (pip install hypothesis); prints one line per challenge and the Hypothesis version.
"""

import statistics
import sys

import hypothesis
from hypothesis import HealthCheck, Phase, given, settings, strategies as st
from hypothesis import seed as with_seed


def int16s():
    return st.integers(-(2**15), 2**15 - 1)


def wrap16(n):
    return (n + 2**15) % 2**16 - 2**15


def sum16(xs):
    return wrap16(sum(xs))


def heaps(minimum=0):
    node = st.integers(min_value=minimum, max_value=2**63 - 1).flatmap(
        lambda key: st.tuples(st.just(key), st.deferred(lambda: heaps(key)), st.deferred(lambda: heaps(key)))
    )
    return st.one_of(st.none(), st.none(), st.none(), node)


def heap_elements(h):
    out, stack = [], [h]
    while stack:
        top = stack.pop()
        if top is None:
            continue
        out.append(top[0])
        stack.append(top[1])
        stack.append(top[2])
    return out


def merge(a, b):
    if a is None:
        return b
    if b is None:
        return a
    if a[0] <= b[0]:
        return (a[0], merge(a[2], b), a[1])
    return (b[0], merge(b[2], a), b[1])


def wrongly_sorted(h):
    return [] if h is None else [h[0]] + heap_elements(merge(h[1], h[2]))


def expressions(depth=5):
    if depth == 0:
        return st.integers(-(2**63), 2**63 - 1)
    child = expressions(depth - 1)
    return st.one_of(
        st.integers(-(2**63), 2**63 - 1),
        st.tuples(st.just("+"), child, child),
        st.tuples(st.just("/"), child, child),
    )


def literal_zero_divisor(e):
    if isinstance(e, int):
        return False
    return (e[0] == "/" and e[2] == 0) or literal_zero_divisor(e[1]) or literal_zero_divisor(e[2])


def evaluate(e):
    if isinstance(e, int):
        return e
    a, b = evaluate(e[1]), evaluate(e[2])
    if e[0] == "+":
        return a + b
    return int(a / b)  # ZeroDivisionError is the failure


def fails_calculator(e):
    hypothesis.assume(not literal_zero_divisor(e))
    try:
        evaluate(e)
    except ZeroDivisionError:
        return True
    return False


def fails_deletion(t):
    xs, i = t
    rest = list(xs)
    rest.remove(xs[i])
    return xs[i] in rest


positive = st.integers(1, 2**31 - 1)
ints = st.integers(-(2**63), 2**63 - 1)

# name: (strategy, fails(value) -> bool (raising hypothesis.assume failures is fine), is_minimal(value))
CHALLENGES = {
    "bound5": (
        st.lists(st.lists(int16s(), max_size=10).filter(lambda x: sum16(x) < 256), min_size=5, max_size=5),
        lambda p: sum16([x for sub in p for x in sub]) >= 5 * 256,
        lambda p: sorted([s for s in p if s]) == [[-32768], [-1]],
    ),
    "large_union_list": (
        st.lists(st.lists(ints, max_size=10), max_size=10),
        lambda ls: len(set(x for sub in ls for x in sub)) >= 5,
        lambda ls: ls == [[0, 1, -1, 2, -2]],
    ),
    "reverse": (st.lists(ints, max_size=10), lambda ls: ls != ls[::-1], lambda ls: ls == [0, 1]),
    "calculator": (
        expressions(),
        fails_calculator,
        lambda e: e == ("/", 0, ("+", 0, 0)),
    ),
    "lengthlist": (
        st.integers(1, 100).flatmap(lambda n: st.lists(st.integers(0, 1000), min_size=n, max_size=n)),
        lambda ls: max(ls) >= 900,
        lambda ls: ls == [900],
    ),
    "difference-must-not-be-zero": (
        st.tuples(positive, positive),
        lambda t: t[0] >= 10 and t[0] == t[1],
        lambda t: t == (10, 10),
    ),
    "difference-must-not-be-small": (
        st.tuples(positive, positive),
        lambda t: t[0] >= 10 and 1 <= abs(t[0] - t[1]) <= 4,
        lambda t: t == (10, 6),
    ),
    "difference-must-not-be-one": (
        st.tuples(positive, positive),
        lambda t: t[0] >= 10 and abs(t[0] - t[1]) == 1,
        lambda t: t == (10, 9),
    ),
    "binheap": (
        heaps(),
        lambda h: wrongly_sorted(h) != sorted(wrongly_sorted(h)) or sorted(heap_elements(h)) != wrongly_sorted(h),
        lambda h: h == (0, None, (0, (0, None, None), (1, None, None))),
    ),
    "coupling": (
        st.lists(st.integers(0, 10), max_size=10).filter(lambda xs: all(x < len(xs) for x in xs)),
        lambda xs: any(xs[i] != i and xs[xs[i]] == i for i in range(len(xs))),
        lambda xs: xs == [1, 0],
    ),
    "deletion": (
        st.lists(ints, min_size=1, max_size=10).flatmap(
            lambda xs: st.tuples(st.just(xs), st.integers(0, len(xs) - 1))
        ),
        fails_deletion,
        lambda t: t == ([0, 0], 0),
    ),
    "distinct": (st.lists(ints, max_size=10), lambda xs: len(set(xs)) >= 3, lambda xs: xs in ([0, 1, -1], [0, 1, 2])),
    "nestedlists": (
        st.lists(st.lists(ints, max_size=20), max_size=20),
        lambda ls: sum(map(len, ls)) > 10,
        lambda ls: ls == [[0] * 11],
    ),
}


def run(name, seed):
    strategy, fails, is_minimal = CHALLENGES[name]
    state = {"calls": 0, "first": None, "last": None}

    @with_seed(seed)
    @settings(
        database=None,
        suppress_health_check=list(HealthCheck),
        max_examples=100_000,
        phases=[Phase.generate, Phase.shrink],
        deadline=None,
        report_multiple_bugs=False,
    )
    @given(strategy)
    def test(value):
        state["calls"] += 1
        if fails(value):
            if state["first"] is None:
                state["first"] = state["calls"]
            state["last"] = value
            raise AssertionError()

    try:
        test()
    except AssertionError:
        pass
    if state["first"] is None:
        return False, False, 0
    return True, is_minimal(state["last"]), max(0, state["calls"] - state["first"] - 1)


def main():
    seeds = int(sys.argv[1]) if len(sys.argv) > 1 else 50
    names = sys.argv[2:] or list(CHALLENGES)
    print(f"Hypothesis {hypothesis.__version__}, seeds 1..{seeds}")
    for name in names:
        outcomes = [run(name, seed) for seed in range(1, seeds + 1)]
        found = [o for o in outcomes if o[0]]
        minimal = sum(1 for o in outcomes if o[1])
        median = statistics.median(o[2] for o in found) if found else 0
        print(f"{name:32} {minimal}/{seeds} minimal   {median:g} evaluations   ({len(found)} found a failure)")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
