"""Print the expected values of bench/stats_test.go as JSON (scipy_values.json).

Run it with SciPy, NumPy and lifelines installed, outside the repository:
    python3 -m venv /tmp/scipyenv
    /tmp/scipyenv/bin/pip install scipy numpy lifelines
    /tmp/scipyenv/bin/python bench/testdata/stats/scipy_values.py > bench/testdata/stats/scipy_values.json

Inputs are fixed (a seeded NumPy generator for the longer samples) and stored in the JSON with the
values, so the Go test reads both from one file.
"""

import json
import math
import sys
from fractions import Fraction

import numpy as np
import scipy
from scipy import stats

try:
    import lifelines
    from lifelines import KaplanMeierFitter
except ImportError:  # the Kaplan-Meier values come from lifelines
    sys.exit("lifelines is missing: pip install lifelines")

rng = np.random.default_rng(20240615)


def distinct(n, lo, hi):
    """n distinct values rounded to 3 decimals in [lo, hi)."""
    vals = set()
    while len(vals) < n:
        vals.add(round(float(rng.uniform(lo, hi)), 3))
    out = sorted(vals)
    rng.shuffle(out)
    return [float(v) for v in out]


def split(values, n1):
    return values[:n1], values[n1:]


mwu_inputs = [
    ("small no ties", [1.1, 2.3, 3.7, 4.2, 5.9], [2.8, 6.1, 7.4, 8.0, 9.3, 10.5]),
    ("single values", [1.0], [2.0]),
    ("single value against eight", [4.5], [1, 2, 3, 4, 5, 6, 7, 8]),
    ("one small sample, one of twenty", *split(distinct(23, 0, 100), 3)),
    ("three high values against twenty", [95.5, 88.1, 70.2], distinct(20, 0, 80)),
    ("eight against two hundred", *split(distinct(208, 0, 1000), 8)),
    ("two hundred against eight", *split(distinct(208, 0, 1000), 200)),
    ("eight dominating eight", [10, 11, 12, 13, 14, 15, 16, 17], [1, 2, 3, 4, 5, 6, 7, 8]),
    ("eight dominated by eight", [1, 2, 3, 4, 5, 6, 7, 8], [10, 11, 12, 13, 14, 15, 16, 17]),
    ("balanced exact, U at the centre", [1, 4, 5, 8], [2, 3, 6, 7]),
    ("larger samples no ties", *split(distinct(35, 0, 50), 15)),
    ("larger samples with ties", [float(v) for v in rng.integers(0, 10, 12)], [float(v) for v in rng.integers(2, 12, 14)]),
    ("small samples with ties", [1, 2, 2, 3], [2, 4, 5]),
    ("ties within one sample only", [1, 1, 2], [3, 4]),
    ("all equal", [5, 5, 5], [5, 5]),
    ("all equal, larger", [7.0] * 12, [7.0] * 10),
    ("twenty dominating twenty", [float(v) for v in range(100, 120)], [float(v) for v in range(20)]),
    ("fifty dominating fifty (far tail)", [float(v) for v in range(100, 150)], [float(v) for v in range(50)]),
    ("time to detection, budget 300 as censored value", [12, 40, 300, 300, 300], [3, 5, 8, 300, 9]),
    ("time to detection, most trials missing", [300, 300, 300, 250, 300, 300, 300, 300, 300, 300],
     [20, 45, 300, 61, 12, 300, 88, 140, 300, 33]),
]


def a12_by_pairs(x, y):
    """P(X > Y) + 0.5 P(X = Y) by counting all pairs."""
    wins = sum(1.0 if a > b else 0.5 if a == b else 0.0 for a in x for b in y)
    return wins / (len(x) * len(y))


mwu = []
for name, x, y in mwu_inputs:
    x = [float(v) for v in x]
    y = [float(v) for v in y]
    res = stats.mannwhitneyu(x, y, alternative="two-sided", method="auto")
    ties = len(set(x + y)) < len(x) + len(y)
    method = "exact" if (min(len(x), len(y)) <= 8 and not ties) else "asymptotic"  # SciPy's 'auto' rule
    # The exact test must agree with SciPy's own 'exact' method, the asymptotic with 'asymptotic'.
    check = stats.mannwhitneyu(x, y, alternative="two-sided", method=method)
    assert check.pvalue == res.pvalue and check.statistic == res.statistic, name
    mwu.append({
        "name": name, "x": x, "y": y,
        "u": float(res.statistic), "p": float(res.pvalue), "method": method,
        "a12": a12_by_pairs(x, y),
    })

quantile_inputs = [
    ("odd length", [7.0, 1.0, 3.0, 9.0, 5.0]),
    ("even length", [4.0, 1.0, 3.0, 2.0]),
    ("one value", [42.0]),
    ("with duplicates", [300.0, 12.0, 40.0, 300.0, 300.0, 3.0, 5.0]),
    ("seeded sample", [round(float(v), 4) for v in rng.normal(100, 30, 17)]),
]
qs = [0.0, 0.1, 0.25, 0.5, 0.75, 0.9, 1.0]
quantiles = [{
    "name": name, "xs": xs, "q": qs,
    "values": [float(np.quantile(xs, q)) for q in qs],
    "median": float(np.median(xs)),
} for name, xs in quantile_inputs]

km_inputs = [
    ("time to detection, three trials censored at 300", [12, 40, 300, 300, 300], [True, True, False, False, False]),
    ("time to detection, one trial censored at 300", [3, 5, 8, 300, 9], [True, True, True, False, True]),
    ("censoring at an event time", [2, 3, 3, 3, 5, 6, 6, 8, 9, 10],
     [True, True, False, True, True, False, True, True, False, True]),
    ("tied events", [1, 1, 2, 2, 2, 4, 5, 5], [True, True, True, True, False, True, False, True]),
    ("every trial detects", [4, 1, 9, 7], [True, True, True, True]),
    ("no trial detects", [300, 300, 300], [False, False, False]),
    ("median exactly at 0.5", [1, 2, 3, 4], [True, True, True, True]),
]
km = []
for name, times, observed in km_inputs:
    kmf = KaplanMeierFitter().fit([float(t) for t in times], event_observed=observed)
    table = kmf.event_table
    sf = kmf.survival_function_.iloc[:, 0]
    ci = kmf.confidence_interval_survival_function_
    steps = []
    greenwood = 0.0
    for t, row in table.iterrows():
        d, n = int(row["observed"]), int(row["at_risk"])
        if d == 0:
            continue
        s = float(sf.loc[t])
        step = {"t": float(t), "at_risk": n, "events": d, "s": s}
        if d < n:
            greenwood += d / (n * (n - d))
            step["se"] = s * math.sqrt(greenwood)  # Greenwood, from lifelines' event table
            step["lower"] = float(ci.loc[t].iloc[0])
            step["upper"] = float(ci.loc[t].iloc[1])
        else:
            step["se"] = 0.0
            step["lower"] = 0.0
            step["upper"] = 0.0
        steps.append(step)
    # The median in exact arithmetic: the first event time where the product of (n-d)/n is at most
    # 1/2. lifelines compares its float S with 0.5, which a rounding error can put above 0.5 ("tied
    # events": 3/4 * 2/3 is 0.5000000000000001 in floats), so its median is kept for the record.
    exact, median = Fraction(1), None
    for step in steps:
        exact *= Fraction(step["at_risk"] - step["events"], step["at_risk"])
        if exact <= Fraction(1, 2):
            median = step["t"]
            break
    lifelines_median = float(kmf.median_survival_time_)
    km.append({
        "name": name, "times": [float(t) for t in times], "observed": observed, "steps": steps,
        "median": median,
        "lifelines_median": lifelines_median if math.isfinite(lifelines_median) else None,
    })

# Ranking: per bug, styles ranked by the median of their trials (rank 1 = best, average ranks for
# ties, as pandas' rank does in FuzzBench), then the mean rank over bugs.
rank_inputs = [
    ("fewer seconds is better", False, {
        "bug-a": {"norec": [10, 12, 30], "tlp": [50, 40, 45], "diff": [300, 300, 200]},
        "bug-b": {"norec": [300, 300, 300], "tlp": [20, 25, 22], "diff": [18, 30, 22]},
        "bug-c": {"norec": [5, 6, 7], "tlp": [6, 5, 7], "diff": [100, 90, 95]},
        "bug-d": {"norec": [60, 70], "tlp": [61, 80], "diff": [59, 200]},
    }),
    ("more detections is better", True, {
        "bug-a": {"sat": [1, 1, 0, 1], "model": [0, 0, 0, 0], "diff": [1, 0, 1, 1], "crash": [0, 1, 0, 0]},
        "bug-b": {"sat": [0, 0, 0, 0], "model": [1, 1, 1, 1], "diff": [1, 1, 1, 0], "crash": [0, 0, 0, 0]},
        "bug-c": {"sat": [3, 4, 5, 6], "model": [1, 2, 2, 2], "diff": [7, 1, 9, 2], "crash": [4.5, 4.5, 4.5, 4.5]},
    }),
]
rank = []
for name, higher, trials in rank_inputs:
    bugs = sorted(trials)
    styles = sorted({s for b in bugs for s in trials[b]})
    per_bug = {s: [] for s in styles}
    for b in bugs:
        medians = np.array([np.median(trials[b][s]) for s in styles])
        r = stats.rankdata(-medians if higher else medians, method="average")
        for s, v in zip(styles, r):
            per_bug[s].append(float(v))
    rank.append({
        "name": name, "higher_better": higher,
        "trials": {b: {s: [float(v) for v in vs] for s, vs in trials[b].items()} for b in bugs},
        "bugs": bugs,
        "ranks": per_bug,
        "mean_rank": {s: float(np.mean(per_bug[s])) for s in styles},
    })

json.dump({
    "scipy": scipy.__version__, "numpy": np.__version__, "lifelines": lifelines.__version__,
    "mannwhitneyu": mwu, "quantile": quantiles, "kaplan_meier": km, "rank": rank,
}, sys.stdout, indent=1)
sys.stdout.write("\n")
