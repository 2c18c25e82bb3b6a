#!/usr/bin/env python3
"""
The work of `semece score` done the strongest way Python offers, for bench/score.bench.ts to time
against: read and check the authors' clustered and graded JSONL (orjson when installed, else the
standard json module), join them on id (first row per id wins), per-question estimates (Sem1,
Sem2 with R = 10 splits from default_rng(0) per question, verbalized, margin, entropy, regime),
every metric of the three paper signals (ECE and its bins, equal-mass ECE, MCE, smooth ECE, Brier
with its Murphy decomposition, AUROC, AURC, mean confidence, ECE per regime), the paired bootstrap
with B replicates from one default_rng(7) stream and an ECE interval per signal, and the same JSON
document on stdout (NaN as null).

Vectorised throughout: no loop over questions or samples in Python. Sem2 runs over all questions
with the same n at once (one array of every split); the bootstrap draws a block of replicates at
a time, counts how often each row is drawn (one bincount), and gets every replicate's per-bin sums
of y - c for every signal, and of the low-margin rows, from one matrix product with those counts.
The only Python loops left run over distinct values of n, over blocks of replicates, over the ten
bins and over bandwidths of the smooth ECE's bisection.

usage: python3 bench/score-numpy.py --clustered FILE --graded FILE [--B 1000] [--R 10] [--bins 10]
"""
import argparse
import gc
import math
import os
import sys

import numpy as np

try:
    import orjson

    loads = orjson.loads
    PARSER = 'orjson'
except ImportError:  # the standard library's parser, C-accelerated
    import json

    loads = json.loads
    PARSER = 'json'

SIGNALS = ('sem1', 'sem2', 'verbalized')
JENSEN = 0.612


def fail(message):
    sys.stderr.write(f'score-numpy: {message}\n')
    sys.exit(2)


def read_jsonl(path):
    """(line, object) of every non-blank line; first row per id wins, later ones are counted."""
    with open(path, 'rb') as f:
        data = f.read()
    if data.startswith(b'\xef\xbb\xbf'):
        data = data[3:]
    rows, seen, duplicates = [], set(), 0
    for number, line in enumerate(data.split(b'\n'), 1):
        if not line.strip():
            continue
        try:
            obj = loads(line)
        except ValueError as e:
            fail(f'{path}, line {number}: bad JSON ({e})')
        if not isinstance(obj, dict):
            fail(f'{path}, line {number}: expected a JSON object')
        rid = obj.get('id')
        if not (isinstance(rid, str) and rid) and not (isinstance(rid, int) and not isinstance(rid, bool)):
            fail(f'{path}, line {number}: "id" must be a non-empty string or an integer')
        rid = str(rid)
        if rid in seen:
            duplicates += 1
            continue
        seen.add(rid)
        rows.append((number, rid, obj))
    if not rows:
        fail(f'{path}: no rows')
    return rows, duplicates


def clustering_failed(obj):
    for key in ('cluster_error', 'clustering_error', 'error'):
        v = obj.get(key)
        if v is not None and v != '' and v is not False:
            return True
    return obj.get('cluster_assignments', 0) is None or obj.get('n_clusters', 1) in (None, 0)


def check_types(values, allowed, what, path):
    if not set(map(type, values)) <= allowed:
        fail(f'{path}: {what} holds a value of the wrong type')


def read_rows(clustered_path, graded_path):
    clustered, dup_c = read_jsonl(clustered_path)
    graded, dup_g = read_jsonl(graded_path)
    grades = {}
    for number, rid, g in graded:
        if 'Y' not in g or g['Y'] not in (0, 1, None) or isinstance(g['Y'], bool):
            fail(f'{graded_path}, line {number}: "Y" must be 0, 1 or null')
        if 'grade' not in g or not (g['grade'] is None or isinstance(g['grade'], str)):
            fail(f'{graded_path}, line {number}: "grade" must be a string or null')
        grades[rid] = g
    kept, excluded = [], []
    for number, rid, c in clustered:
        g = grades.get(rid)
        if clustering_failed(c) or g is None or g['Y'] is None:
            excluded.append(rid)
        else:
            kept.append((rid, c, g['Y'], g['grade']))
    ids = [k[0] for k in kept]
    objs = [k[1] for k in kept]
    try:
        n = np.array([o['n_samples'] for o in objs], dtype=np.int64)
        K = np.array([o['n_clusters'] for o in objs], dtype=np.int64)
        modal = np.array([o['modal_cluster'] for o in objs], dtype=np.int64)
    except (KeyError, TypeError, ValueError):
        fail(f'{clustered_path}: a row lacks an integer n_samples, n_clusters or modal_cluster')
    if (n < 1).any() or (K < 1).any():
        fail(f'{clustered_path}: a row has no samples or no classes')
    # Every per-sample array flattened once (list.extend runs in C), checked as whole arrays.
    flat = {key: [] for key in ('results', 'answer_extracted', 'confidence_verbalized', 'cluster_assignments')}
    for key, out in flat.items():
        for o in objs:
            v = o.get(key)
            if not isinstance(v, list):
                fail(f'{clustered_path}: "{key}" must be an array')
            out.extend(v)
    labels, sizes_flat = [], []
    for o in objs:
        labels.extend(o['cluster_labels'])
        sizes_flat.extend(o['cluster_sizes'])
    for key in ('results', 'answer_extracted'):
        check_types(flat[key], {str, type(None)}, f'"{key}"', clustered_path)
    check_types(labels, {str}, '"cluster_labels"', clustered_path)
    check_types([o.get('question') for o in objs] + [o.get('gold_answer') for o in objs] + [o.get('model') for o in objs] + [o.get('modal_cluster_label') for o in objs], {str}, 'a text field', clustered_path)
    offsets = np.concatenate(([0], np.cumsum(n)))
    for key in flat:
        if len(flat[key]) != offsets[-1]:
            fail(f'{clustered_path}: "{key}" disagrees with n_samples')
    if len(labels) != K.sum() or len(sizes_flat) != K.sum():
        fail(f'{clustered_path}: "cluster_labels" or "cluster_sizes" disagrees with n_clusters')
    check_types(flat['cluster_assignments'], {int}, '"cluster_assignments"', clustered_path)
    a = np.array(flat['cluster_assignments'], dtype=np.int64)
    check_types(flat['confidence_verbalized'], {int, float, type(None)}, '"confidence_verbalized"', clustered_path)
    conf = np.array(flat['confidence_verbalized'], dtype=np.float64)  # None → NaN
    if ((conf < 0) | (conf > 1)).any():
        fail(f'{clustered_path}: a confidence is outside [0, 1]')
    row_of_sample = np.repeat(np.arange(len(objs)), n)
    if ((a < 0) | (a >= K[row_of_sample])).any():
        fail(f'{clustered_path}: a class index is outside 0..K-1')
    Kmax = int(K.max()) if len(K) else 1
    sizes = np.bincount(row_of_sample * (Kmax + 1) + a, minlength=len(objs) * (Kmax + 1)).reshape(len(objs), Kmax + 1)
    listed = np.zeros_like(sizes)
    k_offsets = np.concatenate(([0], np.cumsum(K)))
    class_row = np.repeat(np.arange(len(objs)), K)
    listed[class_row, np.arange(len(sizes_flat)) - k_offsets[class_row]] = np.array(sizes_flat, dtype=np.int64)
    if (listed != sizes).any():
        fail(f'{clustered_path}: "cluster_sizes" disagrees with "cluster_assignments"')
    if (sizes.argmax(1) != modal).any():
        fail(f'{clustered_path}: "modal_cluster" is not the first largest class')
    y = np.array([k[2] for k in kept], dtype=np.float64)
    grade = [k[3] for k in kept]
    return dict(ids=ids, n=n, a=a, offsets=offsets, conf=conf, sizes=sizes, y=y, grade=grade,
                excluded=excluded, duplicates=dup_c + dup_g, unmatched=len(set(grades) - {rid for _, rid, _ in clustered}))


def permutations(n, R, seed):
    rng = np.random.default_rng(seed)
    return np.stack([rng.permutation(n) for _ in range(R)])


def sem2_all(rows, R, seed):
    """Sem2 of every question, all questions with the same n at once."""
    n, a, offsets, sizes = rows['n'], rows['a'], rows['offsets'], rows['sizes']
    Kp = sizes.shape[1]
    out = np.empty(len(n))
    for m in np.unique(n):
        qs = np.flatnonzero(n == m)
        A = a[offsets[qs][:, None] + np.arange(m)]  # questions × m
        P = permutations(int(m), R, seed)
        h = int(m) // 2
        sel = A[:, P[:, :h]].reshape(len(qs) * R, h)
        counts = np.zeros((len(qs) * R, Kp), dtype=np.int64)
        if h:
            counts = np.bincount((np.arange(len(qs) * R)[:, None] * Kp + sel).ravel(), minlength=len(qs) * R * Kp).reshape(-1, Kp)
        z = counts.argmax(1)
        ev = A[:, P[:, h:]].reshape(len(qs) * R, int(m) - h)
        c = (ev == z[:, None]).sum(1) / (int(m) - h)
        out[qs] = c.reshape(len(qs), R).mean(1)
    return out


def estimates(rows, R, seed):
    n, sizes = rows['n'].astype(np.float64), rows['sizes']
    top = np.sort(sizes, axis=1)
    sem1 = top[:, -1] / n
    margin = (top[:, -1] - top[:, -2]) / n
    p = sizes / n[:, None]
    with np.errstate(divide='ignore', invalid='ignore'):
        entropy = -np.where(p > 0, p * np.log(p), 0).sum(1)
    nonempty = (sizes > 0).sum(1)
    conf = rows['conf']
    stated = np.where(np.isnan(conf), 1.0, np.clip(conf, 0, 1))
    # np.mean over each question's samples (pairwise summation, as the authors' code averages), by n.
    verbalized = np.empty(len(n))
    for m in np.unique(rows['n']):
        qs = np.flatnonzero(rows['n'] == m)
        verbalized[qs] = stated[rows['offsets'][qs][:, None] + np.arange(m)].mean(1)
    std_margin = np.sqrt(n) * margin
    k_bar = nonempty.mean() if len(n) else math.nan
    with np.errstate(invalid='ignore', divide='ignore'):
        large = margin >= np.sqrt(np.log(k_bar) / n)
    regime = np.where(std_margin < JENSEN, 'jensen', np.where(large, 'large-margin', 'low-margin'))
    return dict(sem1=sem1, sem2=sem2_all(rows, R, seed), verbalized=verbalized, margin=margin, std_margin=std_margin,
                entropy=entropy, nonempty=nonempty, regime=regime, k_bar=k_bar)


def edges_of(L):
    e = np.arange(L + 1) * (1 / L)
    e[L] = 1
    return e


def bin_index(c, L):
    return np.searchsorted(edges_of(L)[1:-1], c, side='right')


def bins_of(c, y, b, L, lo, hi):
    count = np.bincount(b, minlength=L)
    with np.errstate(invalid='ignore', divide='ignore'):
        mc = np.bincount(b, weights=c, minlength=L) / count
        acc = np.bincount(b, weights=y, minlength=L) / count
    return [dict(lo=float(lo[k]), hi=float(hi[k]), count=int(count[k]), meanConfidence=float(mc[k]), accuracy=float(acc[k])) for k in range(len(count))]


def ece_of(bins):
    total = sum(b['count'] for b in bins)
    if total == 0:
        return math.nan
    return sum(b['count'] / total * abs(b['accuracy'] - b['meanConfidence']) for b in bins if b['count'])


def equal_mass_bins(c, y, L):
    N = len(c)
    if N == 0:
        return []
    order = np.argsort(c, kind='stable')
    s = c[order]
    cuts = [0]
    for b in range(1, L):
        p = max(b * N // L, cuts[-1])
        if 0 < p < N and s[p] == s[p - 1]:
            p = int(np.searchsorted(s, s[p], side='right'))
        cuts.append(p)
    cuts.append(N)
    which = np.empty(N, dtype=np.int64)
    which[order] = np.repeat(np.arange(L), np.diff(cuts))
    lo = [s[cuts[k]] if cuts[k] < N else math.nan for k in range(L)]
    hi = [s[cuts[k + 1] - 1] if cuts[k + 1] > 0 else math.nan for k in range(L)]
    return [b for b in bins_of(c, y, which, L, lo, hi) if b['count']]


def brier(c, y, b, L):
    # Stephenson, Coelho & Jolliffe (2008) on the paper's equal-width bins, as core/brier.ts.
    counts = np.bincount(b, minlength=L).astype(float)
    safe = np.maximum(counts, 1)
    f = np.bincount(b, weights=c, minlength=L) / safe
    o = np.bincount(b, weights=y, minlength=L) / safe
    base = y.mean()
    df, dy = c - f[b], y - o[b]
    n = len(c)
    return dict(score=float(((c - y) ** 2).mean()), reliability=float((counts * (f - o) ** 2).sum() / n),
                resolution=float((counts * (o - base) ** 2).sum() / n), uncertainty=float(base * (1 - base)),
                withinBinVariance=float((df * df).sum() / n), withinBinCovariance=float(2 * (df * dy).sum() / n))


def auroc(c, y):
    pos = y.sum()
    neg = len(y) - pos
    if pos == 0 or neg == 0:
        return math.nan
    _, inverse, counts = np.unique(c, return_inverse=True, return_counts=True)
    starts = np.cumsum(counts) - counts
    mid = starts + (counts + 1) / 2
    return float((mid[inverse][y == 1].sum() - pos * (pos + 1) / 2) / (pos * neg))


def aurc(c, y):
    """Risk–coverage area, ties averaged over every order: groups of equal confidence, most confident first."""
    values, inverse, counts = np.unique(-c, return_inverse=True, return_counts=True)
    errors = np.bincount(inverse, weights=1 - y)
    start = np.cumsum(counts) - counts
    before = np.cumsum(errors) - errors
    order = np.argsort(inverse, kind='stable')
    g = inverse[order]
    k = np.arange(1, len(c) + 1)
    j = k - start[g]
    return float(((before[g] + j * errors[g] / counts[g]) / k).sum() / len(c))


def smooth_ece(c, y):
    """Smooth ECE with the self-consistent bandwidth: residuals spread over the grid with cubic
    Lagrange weights (ends folded), smoothed by the Gaussian reflected at 0 and 1 (a convolution
    of the reflected grid), |g| integrated by the trapezoid rule; bisection on sigma as relplot does."""
    N = len(c)
    if N == 0 or np.isnan(c).any():
        return math.nan
    r = (y - c) / N
    x = np.clip(c, 0, 1)

    def at(sigma):
        G = 2 ** max(4, math.ceil(math.log2(16 / sigma)))
        pos = x * G
        k = np.minimum(np.floor(pos).astype(np.int64), G - 1)
        u = pos - k
        weights = (-u * (u - 1) * (u - 2) / 6, (u + 1) * (u - 1) * (u - 2) / 2, -(u + 1) * u * (u - 2) / 2, (u + 1) * u * (u - 1) / 6)
        padded = sum(np.bincount(k + j, weights=r * w, minlength=G + 3) for j, w in enumerate(weights))  # node k at k + 1
        m = padded[1:G + 2].copy()
        m[1] += padded[0]
        m[G - 1] += padded[G + 2]
        W = math.ceil(8 * sigma * G)
        q = np.arange(-W, G + W + 1) % (2 * G)
        idx = np.where(q <= G, q, 2 * G - q)
        ext = m[idx] * np.where((idx == 0) | (idx == G), 2.0, 1.0)
        d = np.arange(-W, W + 1)
        taps = np.exp(-((d / G) ** 2) / (2 * sigma * sigma)) / (math.sqrt(2 * math.pi) * sigma)
        g = np.convolve(ext, taps, mode='valid')
        return float(np.trapezoid(np.abs(g), dx=1 / G))

    if 1 < at(1):
        return at(1)
    above, below = 1.0, 0.0
    for _ in range(10):
        mid = (above + below) / 2
        if mid < 0.001 or mid < at(mid):
            below = mid
        else:
            above = mid
    return at(above)


def signal_metrics(c, y, L):
    b = bin_index(c, L)
    e = edges_of(L)
    paper = bins_of(c, y, b, L, e[:-1], e[1:])
    mass = equal_mass_bins(c, y, L)
    # MCE over bins of at least MCE_MIN_COUNT = 10 questions, as core/ece.ts.
    gaps = [abs(x['accuracy'] - x['meanConfidence']) for x in paper if x['count'] >= 10]
    return dict(ece=ece_of(paper), eceEqualMass=ece_of(mass), mce=max(gaps) if gaps else math.nan, smoothEce=smooth_ece(c, y),
                brier=brier(c, y, b, L), auroc=auroc(c, y), aurc=aurc(c, y), meanConfidence=float(c.mean()), bins=paper, binsEqualMass=mass)


def interval(point, reps, min_finite=50):
    finite = reps[np.isfinite(reps)]
    if len(finite) < min_finite:
        return [point, math.nan, math.nan]
    lo, hi = np.percentile(finite, [2.5, 97.5])
    return [point, float(lo), float(hi)]


def paired_bootstrap(est, y, L, B, seed, block=100):
    """d_conf, d_ece, d_ece_lo and every signal's ECE, B replicates of one default_rng(seed) stream."""
    N = len(y)
    low = (est['margin'] < 1 / math.sqrt(50)).astype(np.float64)
    cols = []  # the matrix whose product with the draw counts gives every replicate's sums
    for s in SIGNALS:
        r = y - est[s]
        onehot = np.zeros((N, L))
        onehot[np.arange(N), bin_index(est[s], L)] = 1
        cols.append(onehot * r[:, None])
        if s != 'verbalized':
            cols.append(onehot * (r * low)[:, None])
    cols.append((est['sem1'] - est['sem2'])[:, None])
    cols.append(low[:, None])
    X = np.hstack(cols)

    def stats(M):
        S = M @ X
        k = 0
        ece, lo = {}, {}
        for s in SIGNALS:
            # ECE = Σ over bins |Σ (y − c)| / N: each replicate's per-bin sums weighted by its draw counts.
            ece[s] = np.abs(S[:, k:k + L]).sum(1) / M.sum(1)
            k += L
            if s != 'verbalized':
                lo[s] = np.abs(S[:, k:k + L]).sum(1)
                k += L
        d_conf = S[:, k] / M.sum(1)
        n_lo = S[:, k + 1]
        with np.errstate(invalid='ignore', divide='ignore'):
            d_lo = np.where(n_lo >= 30, (lo['sem1'] - lo['sem2']) / n_lo, np.nan)
        return ece, d_conf, d_lo, n_lo

    ece0, dconf0, dlo0, nlo0 = stats(np.ones((1, N)))
    rng = np.random.default_rng(seed)
    reps = {s: [] for s in SIGNALS}
    dconf, dlo = [], []
    for start in range(0, B if N else 0, block):
        C = min(block, B - start)
        idx = rng.integers(0, N, size=(C, N))
        M = np.bincount((idx + (np.arange(C) * N)[:, None]).ravel(), minlength=C * N).reshape(C, N).astype(np.float64)
        ece, d, l, _ = stats(M)
        for s in SIGNALS:
            reps[s].append(ece[s])
        dconf.append(d)
        dlo.append(l)
    cat = lambda parts: np.concatenate(parts) if parts else np.array([])
    point = {s: float(ece0[s][0]) for s in SIGNALS}
    return dict(
        bootstrap=dict(d_conf=interval(float(dconf0[0]), cat(dconf)), d_ece=interval(point['sem1'] - point['sem2'], cat(reps['sem1']) - cat(reps['sem2'])),
                       d_ece_lo=interval(float(dlo0[0]), cat(dlo)), n_lo=int(nlo0[0]), B=B, seed=seed),
        ece_intervals={s: interval(point[s], cat(reps[s])) for s in SIGNALS},
    )


def clean(v):
    """NaN → None for JSON (orjson writes NaN as null itself; the json module would write NaN)."""
    if isinstance(v, float):
        return None if math.isnan(v) or math.isinf(v) else v
    if isinstance(v, dict):
        return {k: clean(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [clean(x) for x in v]
    return v


def main():
    # Millions of small objects come out of the parser and none form cycles: the cyclic collector
    # would only rescan them (the usual setting for bulk loads in Python).
    gc.disable()
    p = argparse.ArgumentParser()
    p.add_argument('--clustered', required=True)
    p.add_argument('--graded', required=True)
    p.add_argument('--R', type=int, default=10)
    p.add_argument('--sem2-seed', type=int, default=0)
    p.add_argument('--bins', type=int, default=10)
    p.add_argument('--B', type=int, default=1000)
    p.add_argument('--bootstrap-seed', type=int, default=7)
    o = p.parse_args()
    rows = read_rows(o.clustered, o.graded)
    est = estimates(rows, o.R, o.sem2_seed)
    y = rows['y']
    metrics = {s: signal_metrics(est[s], y, o.bins) for s in SIGNALS}
    boot = paired_bootstrap(est, y, o.bins, o.B, o.bootstrap_seed)
    by_regime = {}
    for regime in ('jensen', 'low-margin', 'large-margin'):
        keep = est['regime'] == regime
        by_regime[regime] = dict(count=int(keep.sum()), ece={s: ece_of(bins_of(est[s][keep], y[keep], bin_index(est[s][keep], o.bins), o.bins, edges_of(o.bins)[:-1], edges_of(o.bins)[1:])) for s in SIGNALS})
    n = rows['n']
    grade = ['CORRECT' if yy == 1 else ('NOT_ATTEMPTED' if g == 'NOT_ATTEMPTED' else 'INCORRECT') for yy, g in zip(y, rows['grade'])]
    questions = [dict(id=i, n=a, sem1=b, sem2=c, verbalized=d, correct=e, margin=f, std_margin=g, regime=h, entropy=j, n_classes=k, grade=l)
                 for i, a, b, c, d, e, f, g, h, j, k, l in zip(rows['ids'], n.tolist(), est['sem1'].tolist(), est['sem2'].tolist(), est['verbalized'].tolist(),
                                                               y.astype(int).tolist(), est['margin'].tolist(), est['std_margin'].tolist(), est['regime'].tolist(),
                                                               est['entropy'].tolist(), est['nonempty'].tolist(), grade)]
    per = lambda key: {s: metrics[s][key] for s in SIGNALS}
    doc = dict(
        questions=questions,
        metrics=dict(questions=len(y), excluded=len(rows['excluded']), accuracy=float(y.mean()) if len(y) else math.nan,
                     ece=per('ece'), brier=per('brier'), ece_equal_mass=per('eceEqualMass'), mce=per('mce'), smooth_ece=per('smoothEce'),
                     auroc=per('auroc'), aurc=per('aurc'), mean_confidence=per('meanConfidence'),
                     bootstrap=boot['bootstrap'], ece_intervals=boot['ece_intervals'], by_regime=by_regime, mean_classes=float(est['k_bar'])),
        parser=PARSER,
        settings=dict(R=o.R, sem2_seed=o.sem2_seed, bins=o.bins, B=o.B, bootstrap_seed=o.bootstrap_seed),
    )
    if PARSER == 'orjson':
        sys.stdout.buffer.write(orjson.dumps(doc))
    else:
        sys.stdout.write(json.dumps(clean(doc)))
    sys.stdout.write('\n')
    sys.stderr.write(f'score-numpy: {len(y)} questions scored, {len(rows["excluded"])} excluded ({PARSER})\n')
    sys.stdout.flush()
    # Leave without freeing every parsed object one by one, as a process that is done may.
    os._exit(0)


if __name__ == '__main__':
    main()
