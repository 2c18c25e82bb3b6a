#!/usr/bin/env python3
"""
Reference numbers for src/core/prediction-rejection.ts, isotonic.ts, platt.ts and recalibration.ts,
written to tests/fixtures/uncertainty/prr-reference.json and recalibration-reference.json, which
the unit tests under tests/unit/core/ compare against.

PRR: LM-Polygraph's own code, loaded from a checkout given on the command line (nothing of it is
copied here): ue_metrics/ue_metric.py (normalize, get_random_scores, normalize_metric) and
ue_metrics/pred_rej_area.py (PredictionRejectionArea). The package's __init__ imports modules that
need scikit-learn and torch, so the two files are loaded under a stub package whose __init__ is
never run. The normalisation follows utils/manager.py `eval_ue` (it imports torch, so its three
lines are repeated here): oracle = metric(-target, target), random = get_random_scores(metric,
target), prr = normalize_metric(area, oracle, random). The estimator passed is an uncertainty: the
negated confidence.

For confidences with ties LM-Polygraph's value depends on np.argsort's order inside each tie
group; the TypeScript averages over every such order. The 'tied' fixture enumerates all orders
inside its tie groups, runs LM-Polygraph on each, and records the mean.

Isotonic: scipy.optimize.isotonic_regression (PAV) on the distinct scores (each the mean outcome
of its rows, weighted by their count, as sklearn's IsotonicRegression pools ties), predictions by
np.interp (linear between fitted scores, the end values outside them: out_of_bounds='clip').

Platt: the unregularised Bernoulli log-likelihood of sigmoid(a*s + b) minimised by
scipy.optimize.minimize(method='trust-exact') with its exact gradient and Hessian (gtol 1e-13, in
standardised scores (s - mean)/sd, then three Newton steps, then mapped back to the raw score),
with plain labels when the classes overlap in score and Platt's smoothed targets otherwise (or when
asked), as platt.ts chooses. The tests allow 1e-7 on a and b and 1e-9 on the probabilities.

Cross-fitting: np.random.default_rng(seed).permutation(N), the first N//2 rows half A, the rest
half B; each half predicted by the map fitted on the other.

usage: python3 bench/reference/ranking_reference.py --lm-polygraph PATH [--commit SHA] [--out DIR]
  PATH: an lm-polygraph checkout (or `git archive` of one: then give --commit).
Needs numpy and scipy only.
"""
import argparse
import importlib
import itertools
import json
import os
import subprocess
import sys
import types

import numpy as np
from scipy.optimize import isotonic_regression, minimize


def load_lm_polygraph(root):
    """ue_metric and pred_rej_area from the checkout, without running the package's __init__."""
    folder = os.path.join(root, 'src', 'lm_polygraph', 'ue_metrics')
    if not os.path.isfile(os.path.join(folder, 'pred_rej_area.py')):
        sys.exit(f'no src/lm_polygraph/ue_metrics/pred_rej_area.py under {root}')
    stub = types.ModuleType('lmp_ue_metrics')
    stub.__path__ = [folder]
    sys.modules['lmp_ue_metrics'] = stub
    ue_metric = importlib.import_module('lmp_ue_metrics.ue_metric')
    pred_rej_area = importlib.import_module('lmp_ue_metrics.pred_rej_area')
    return ue_metric, pred_rej_area


def checkout_commit(root, given):
    if given:
        return given
    try:
        return subprocess.run(['git', '-C', root, 'rev-parse', 'HEAD'], capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return 'unknown'


def sigmoid(x):
    return 1 / (1 + np.exp(-x))


# ---------------------------------------------------------------- PRR

def lmp_prr_case(ue_metric, pra, name, conf, y, max_rejections, tie_orders=False):
    conf = np.asarray(conf, dtype=float)
    y = np.asarray(y, dtype=float)
    out = {'name': name, 'conf': conf.tolist(), 'y': y.astype(int).tolist(), 'results': []}
    for max_rej in max_rejections:
        metric = pra.PredictionRejectionArea(max_rejection=max_rej)
        if tie_orders:
            area = mean_over_tie_orders(metric, conf, y)
        else:
            assert len(np.unique(conf)) == len(conf), 'use tie_orders for tied confidences'
            area = float(metric(-conf, y))
        oracle = float(metric(-y, y))
        random_mc = float(ue_metric.get_random_scores(metric, y))
        # get_random_scores' loop again, to keep each draw's area for the Monte Carlo standard error.
        np.random.seed(42)
        rand_scores = np.arange(len(y))
        draws = []
        for _ in range(1000):
            np.random.shuffle(rand_scores)
            draws.append(metric(rand_scores, y))
        draws = np.asarray(draws)
        assert draws.mean() == random_mc
        out['results'].append({
            'maxRejection': max_rej,
            'steps': int(max_rej * len(y)),
            'area': area,
            'oracle': oracle,
            'randomExact': float(y.mean()),
            'randomMonteCarlo': random_mc,
            'randomMonteCarloSe': float(draws.std(ddof=1) / np.sqrt(len(draws))),
            'prrLmPolygraph': float(ue_metric.normalize_metric(area, oracle, random_mc)),
        })
    return out


def mean_over_tie_orders(metric, conf, y):
    """LM-Polygraph's area averaged over every order inside each tie group (given as a total order)."""
    values = sorted(set(conf.tolist()), reverse=True)
    groups = [np.flatnonzero(conf == v) for v in values]
    areas = []
    for perms in itertools.product(*(itertools.permutations(g) for g in groups)):
        order = np.concatenate([np.asarray(p) for p in perms])  # most confident first
        ue = np.empty(len(conf))
        ue[order] = np.arange(len(conf))  # distinct uncertainties: argsort is that order
        areas.append(metric(ue, y))
    return float(np.mean(areas))


def prr_fixtures(ue_metric, pra):
    rng = np.random.default_rng(29_001)
    cases = []
    s = rng.normal(size=157)
    y = (rng.random(157) < sigmoid(1.5 * s)).astype(int)
    cases.append(lmp_prr_case(ue_metric, pra, 'continuous-157', s, y, [1.0, 0.5]))
    # int(0.29 * 100) is 28 in double arithmetic (0.29 * 100 = 28.999999999999996).
    s = rng.normal(size=100)
    y = (rng.random(100) < sigmoid(s)).astype(int)
    cases.append(lmp_prr_case(ue_metric, pra, 'truncation-100', s, y, [0.29, 1.0]))
    # Uninformative: the signal is noise, PRR near 0.
    s = rng.random(64)
    y = (rng.random(64) < 0.6).astype(int)
    cases.append(lmp_prr_case(ue_metric, pra, 'noise-64', s, y, [1.0, 0.5]))
    # Tie groups of sizes 2, 3, 1, 3, 2, 1: 2·6·1·6·2·1 = 144 orders.
    conf = [0.9, 0.7, 0.9, 0.5, 0.7, 0.3, 0.7, 0.8, 0.3, 0.3, 0.5, 0.1]
    y = [1, 0, 0, 1, 1, 0, 1, 1, 1, 0, 0, 0]
    cases.append(lmp_prr_case(ue_metric, pra, 'tied-12', conf, y, [1.0, 0.5], tie_orders=True))
    return cases


# ---------------------------------------------------------------- isotonic

def iso_fit(s, y):
    xs, inverse, counts = np.unique(s, return_inverse=True, return_counts=True)
    means = np.bincount(inverse, weights=y) / counts
    fitted = isotonic_regression(means, weights=counts.astype(float), increasing=True).x
    return xs, fitted


def iso_predict(xs, fitted, q):
    return np.interp(q, xs, fitted)  # clamps to the end values outside [xs[0], xs[-1]]


def isotonic_fixtures():
    rng = np.random.default_rng(29_002)
    cases = []
    s = np.round(rng.normal(size=90), 1)  # ties
    y = (rng.random(90) < sigmoid(2 * s)).astype(float)
    q = np.concatenate([np.linspace(s.min() - 0.5, s.max() + 0.5, 41), s[:10]])
    xs, fitted = iso_fit(s, y)
    cases.append({'name': 'tied-90', 'score': s.tolist(), 'y': y.astype(int).tolist(), 'x': xs.tolist(),
                  'fitted': fitted.tolist(), 'query': q.tolist(), 'predicted': iso_predict(xs, fitted, q).tolist()})
    s = rng.normal(size=200) * 3
    y = (rng.random(200) < sigmoid(s - 0.5)).astype(float)
    q = np.linspace(-12, 12, 49)
    xs, fitted = iso_fit(s, y)
    cases.append({'name': 'distinct-200', 'score': s.tolist(), 'y': y.astype(int).tolist(), 'x': xs.tolist(),
                  'fitted': fitted.tolist(), 'query': q.tolist(), 'predicted': iso_predict(xs, fitted, q).tolist()})
    return cases


# ---------------------------------------------------------------- Platt

def platt_mle_exists(s, y):
    s0, s1 = s[y == 0], s[y == 1]
    return len(s0) > 0 and len(s1) > 0 and s0.max() > s1.min() and s1.max() > s0.min()


def platt_fit(s_raw, y, targets='labels'):
    # Minimised over standardised scores (the same problem, better conditioned), mapped back at the end.
    mean, sd = s_raw.mean(), s_raw.std()
    s = (s_raw - mean) / sd
    n1 = int(y.sum())
    n0 = len(y) - n1
    smoothed = targets == 'smoothed' or not platt_mle_exists(s, y)
    t = np.where(y == 1, (n1 + 1) / (n1 + 2), 1 / (n0 + 2)) if smoothed else y.astype(float)

    def negll(p):
        eta = p[0] * s + p[1]
        return -(t * eta - np.logaddexp(0, eta)).sum()

    def grad(p):
        r = t - sigmoid(p[0] * s + p[1])
        return -np.array([(r * s).sum(), r.sum()])

    def hess(p):
        pr = sigmoid(p[0] * s + p[1])
        v = pr * (1 - pr)
        return np.array([[(v * s * s).sum(), (v * s).sum()], [(v * s).sum(), v.sum()]])

    tm = t.mean()
    res = minimize(negll, np.array([0.0, np.log(tm / (1 - tm))]), jac=grad, hess=hess, method='trust-exact',
                   options={'gtol': 1e-13, 'maxiter': 1000})
    x = res.x
    for _ in range(3):  # trust-exact stops near 1e-10 in the gradient; plain Newton steps finish it
        x = x - np.linalg.solve(hess(x), grad(x))
    a = x[0] / sd
    return float(a), float(x[1] - a * mean), 'smoothed' if smoothed else 'labels', float(np.abs(grad(x)).max())


def platt_case(name, s, y, q, targets='labels'):
    a, b, used, gmax = platt_fit(s, y, targets)
    return {'name': name, 'score': s.tolist(), 'y': y.astype(int).tolist(), 'requested': targets, 'targets': used,
            'a': a, 'b': b, 'gradientMax': gmax, 'query': q.tolist(), 'predicted': sigmoid(a * q + b).tolist()}


def platt_fixtures():
    rng = np.random.default_rng(29_003)
    cases = []
    s = rng.normal(size=120) * 2 + 0.3
    y = (rng.random(120) < sigmoid(0.8 * s - 0.2)).astype(int)
    q = np.linspace(-6, 6, 25)
    cases.append(platt_case('overlap-120', s, y, q))
    cases.append(platt_case('overlap-120-smoothed', s, y, q, 'smoothed'))
    # A 0-100 verbalized-style score: the same data on another scale.
    cases.append(platt_case('overlap-120-percent', s * 100 / 6 + 50, y, q * 100 / 6 + 50))
    s = np.sort(rng.random(30))
    y = (np.arange(30) >= 18).astype(int)  # every correct answer above every wrong one
    cases.append(platt_case('separable-30', s, y, np.linspace(0, 1, 11)))
    s = np.array([0.2, 0.4, 0.4, 0.6, 0.9])
    y = np.array([0, 0, 1, 1, 1])  # quasi-separated: the classes meet only at 0.4
    cases.append(platt_case('quasi-separated-5', s, y, np.linspace(0, 1, 11)))
    return cases


# ---------------------------------------------------------------- cross-fitting

def cross_fitted(s, y, method, seed):
    n = len(s)
    perm = np.random.default_rng(seed).permutation(n)
    halves = (perm[: n // 2], perm[n // 2:])
    out = np.full(n, np.nan)
    for h in (0, 1):
        fit_rows, apply_rows = halves[h], halves[1 - h]
        if method == 'isotonic':
            xs, fitted = iso_fit(s[fit_rows], y[fit_rows].astype(float))
            out[apply_rows] = iso_predict(xs, fitted, s[apply_rows])
        else:
            a, b, _, _ = platt_fit(s[fit_rows], y[fit_rows])
            out[apply_rows] = sigmoid(a * s[apply_rows] + b)
    return out


def cross_fitted_fixtures():
    rng = np.random.default_rng(29_004)
    n = 101
    # A miscalibrated, overconfident score: true P(correct) = sigmoid(s), reported sigmoid(3s).
    s = rng.normal(size=n)
    y = (rng.random(n) < sigmoid(s)).astype(int)
    conf = sigmoid(3 * s)
    cases = []
    for method in ('isotonic', 'platt'):
        for seed in (0, 7):
            cases.append({'name': f'{method}-seed{seed}', 'method': method, 'seed': seed,
                          'confidence': cross_fitted(conf, y, method, seed).tolist()})
    return {'score': conf.tolist(), 'y': y.tolist(), 'cases': cases}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--lm-polygraph', required=True, help='path to an lm-polygraph checkout')
    ap.add_argument('--commit', help='its commit, when PATH is not a git checkout')
    ap.add_argument('--out', default=os.path.join(os.path.dirname(__file__), '..', '..', 'tests', 'fixtures', 'uncertainty'))
    args = ap.parse_args()
    ue_metric, pra = load_lm_polygraph(args.lm_polygraph)
    os.makedirs(args.out, exist_ok=True)
    versions = {'numpy': np.__version__, 'scipy': __import__('scipy').__version__}
    prr = {
        'generator': 'bench/reference/ranking_reference.py',
        'lmPolygraph': {'repository': 'IINemo/lm-polygraph', 'commit': checkout_commit(args.lm_polygraph, args.commit),
                        'files': ['src/lm_polygraph/ue_metrics/pred_rej_area.py', 'src/lm_polygraph/ue_metrics/ue_metric.py']},
        'versions': versions,
        'cases': prr_fixtures(ue_metric, pra),
    }
    recal = {
        'generator': 'bench/reference/ranking_reference.py',
        'versions': versions,
        'isotonic': isotonic_fixtures(),
        'platt': platt_fixtures(),
        'crossFitted': cross_fitted_fixtures(),
    }
    for name, doc in (('prr-reference.json', prr), ('recalibration-reference.json', recal)):
        path = os.path.join(args.out, name)
        with open(path, 'w') as f:
            json.dump(doc, f, indent=1, allow_nan=False)
            f.write('\n')
        print('wrote', os.path.normpath(path))


if __name__ == '__main__':
    main()
