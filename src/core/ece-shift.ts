/**
 * How far a set's binned ECE would move if every question were corrected as the audited ones were
 * (issue 30): a difference estimator over an audited random sample.
 *
 * The equal-width ECE is a function of per-bin totals: ECE = Σ_b |D_b| / N with
 * D_b = Σ_{q in bin b} (y_q − c_q). Correcting question q moves its (c_q, y_q) to (c'_q, y'_q): it
 * takes y_q − c_q out of bin(c_q) and puts y'_q − c'_q into bin(c'_q), a per-question change δ_q
 * of the vector D. The corrected set's D' = D + Σ_all δ_q is a population total, known exactly for
 * the automatic part and observed on the audited sample only, so it is estimated by the
 * difference estimator (Cochran, "Sampling Techniques", 1977, ch. 7, the regression estimator with
 * its slope fixed at 1; Särndal, Swensson & Wretman, "Model Assisted Survey Sampling", 1992, ch. 6):
 * D̂' = D + Σ_h (N_h / k_h) Σ_{audited q in h} δ_q, the automatic values standing in for the
 * corrected ones and the audit estimating the total of the differences, unbiased under simple random sampling within each stratum h. The shift is
 * ECE(D̂') − ECE(D), exact when every question is audited.
 *
 * Interval (95 %): the rescaling bootstrap of Rao & Wu (1988, JASA 83:231): within each stratum
 * the k_h audited questions are resampled with replacement, the replicate's total of differences
 * is pulled towards the estimate by λ_h = √((1 − f_h) k_h / (k_h − 1)), f_h = k_h / N_h (so its
 * variance is the without-replacement one: none when the whole stratum was audited), and the
 * shift recomputed; percentiles 2.5 and 97.5 of B replicates from one seeded default_rng stream.
 * A stratum with one audited question out of several gives no variance: the interval is NaN.
 * The binned ECE's |·| makes the shift non-smooth where a bin's D is near 0, and noise in D̂'
 * pushes the corrected ECE up (as noise pushes any binned ECE up): `biasCorrected` removes the
 * bias the replicates show (2·estimate − their mean), `basicInterval` is centred on it. The
 * estimate and percentile interval stay the headline (the estimate is the one a hand calculation
 * gives); coverage of each measured by simulation is in docs/STATISTICS.md, "Audits".
 */
import { equalWidthBinOf, equalWidthEdges } from './binning';
import { percentiles } from './percentile';
import { defaultRng } from './rng';

export interface EceShiftInput {
  /** Every question's automatic confidence and outcome (0/1). */
  conf: ArrayLike<number>;
  y: ArrayLike<number>;
  /** Indices (into conf/y) of the audited questions, each once. */
  audited: ArrayLike<number>;
  /** The audited questions' corrected confidence and outcome, in the order of `audited`. */
  correctedConf: ArrayLike<number>;
  correctedY: ArrayLike<number>;
  /** Stratum of every question (any integers; omitted: one stratum, simple random sampling). */
  strata?: ArrayLike<number>;
}

export interface EceShiftOptions {
  bins?: number;
  B?: number;
  seed?: number;
  /** Finite replicates an interval needs (default 50). */
  minFinite?: number;
}

export interface EceShift {
  /** The set's ECE as it stands. */
  ece: number;
  /** The estimated ECE of the set, corrected throughout. */
  corrected: number;
  /** corrected − ece. */
  estimate: number;
  /** 95 % interval of the shift [low, high]. */
  interval: [number, number];
  /** 2·estimate − the replicates' mean (the bias the replicates show removed). */
  biasCorrected: number;
  /** The basic bootstrap interval [2·estimate − q97.5, 2·estimate − q2.5]. */
  basicInterval: [number, number];
  /** Strata with questions but none audited: their questions are taken as unchanged. */
  unauditedStrata: number;
}

/** Σ|D_b| / N. */
function eceOf(d: Float64Array, n: number): number {
  let s = 0;
  for (let b = 0; b < d.length; b++) s += Math.abs(d[b]);
  return s / n;
}

/** The difference estimator of the ECE's shift and its interval (see the module comment). */
export function eceShift(input: EceShiftInput, options: EceShiftOptions = {}): EceShift {
  const { conf, y, audited, correctedConf, correctedY } = input;
  const N = conf.length;
  const k = audited.length;
  if (y.length !== N) throw new RangeError(`eceShift: ${N} confidences against ${y.length} outcomes`);
  if (correctedConf.length !== k || correctedY.length !== k) throw new RangeError(`eceShift: ${k} audited questions against ${correctedConf.length} corrected confidences and ${correctedY.length} outcomes`);
  const edges = equalWidthEdges(options.bins ?? 10);
  const L = edges.length - 1;
  const stratumOf = (i: number) => (input.strata ? input.strata[i] : 0);

  const D = new Float64Array(L);
  const size = new Map<number, number>();
  for (let i = 0; i < N; i++) {
    D[equalWidthBinOf(conf[i], edges)] += y[i] - conf[i];
    size.set(stratumOf(i), (size.get(stratumOf(i)) ?? 0) + 1);
  }
  const ece = N > 0 ? eceOf(D, N) : NaN;

  // Each audited question's change: a bin it leaves, a bin it joins (often the same one).
  const from = new Int32Array(k), to = new Int32Array(k), out = new Float64Array(k), into = new Float64Array(k);
  const members = new Map<number, number[]>();
  for (let j = 0; j < k; j++) {
    const i = audited[j];
    if (!(Number.isInteger(i) && i >= 0 && i < N)) throw new RangeError(`eceShift: audited index ${i} is not a question 0..${N - 1}`);
    from[j] = equalWidthBinOf(conf[i], edges);
    out[j] = y[i] - conf[i];
    to[j] = equalWidthBinOf(correctedConf[j], edges);
    into[j] = correctedY[j] - correctedConf[j];
    const h = stratumOf(i);
    if (!members.has(h)) members.set(h, []);
    members.get(h)!.push(j);
  }
  const strata = [...members.entries()].map(([h, js]) => {
    const Nh = size.get(h)!;
    const kh = js.length;
    const f = kh / Nh;
    return { js: Int32Array.from(js), weight: Nh / kh, lambda: f >= 1 ? 0 : kh > 1 ? Math.sqrt(((1 - f) * kh) / (kh - 1)) : NaN };
  });
  if (new Set(members.keys()).size !== members.size) throw new RangeError('eceShift: a question audited twice');

  // The stratum's estimated total of differences, per bin, from the audited rows `rows` (indices into js).
  const total = (js: Int32Array, rows: ArrayLike<number> | null, weight: number, into_: Float64Array) => {
    into_.fill(0);
    const m = js.length;
    for (let r = 0; r < m; r++) {
      const j = js[rows === null ? r : rows[r]];
      into_[from[j]] -= weight * out[j];
      into_[to[j]] += weight * into[j];
    }
  };
  const point = new Float64Array(L);
  const totals = strata.map((s) => {
    const t = new Float64Array(L);
    total(s.js, null, s.weight, t);
    for (let b = 0; b < L; b++) point[b] = point[b] + t[b];
    return t;
  });
  const estimated = new Float64Array(L);
  for (let b = 0; b < L; b++) estimated[b] = D[b] + point[b];
  const corrected = N > 0 ? eceOf(estimated, N) : NaN;
  const unauditedStrata = [...size.keys()].filter((h) => !members.has(h)).length;

  const B = options.B ?? 1000;
  let interval: [number, number] = [NaN, NaN];
  let basicInterval: [number, number] = [NaN, NaN];
  let biasCorrected = NaN;
  if (k > 0 && strata.every((s) => Number.isFinite(s.lambda))) {
    const rng = defaultRng(options.seed ?? 7);
    const reps = new Float64Array(B);
    const rep = new Float64Array(L), t = new Float64Array(L);
    const buffers = strata.map((s) => new Int32Array(s.js.length));
    for (let b = 0; b < B; b++) {
      rep.set(D);
      strata.forEach((s, si) => {
        const base = totals[si];
        if (s.lambda === 0) {
          for (let c = 0; c < L; c++) rep[c] += base[c];
          return;
        }
        rng.fillIntegers(0, s.js.length, buffers[si]);
        total(s.js, buffers[si], s.weight, t);
        for (let c = 0; c < L; c++) rep[c] += base[c] + s.lambda * (t[c] - base[c]);
      });
      reps[b] = eceOf(rep, N) - ece;
    }
    let finite = 0, sum = 0;
    for (const r of reps) if (Number.isFinite(r)) {
      finite++;
      sum += r;
    }
    if (finite >= (options.minFinite ?? 50)) {
      const [lo, hi] = percentiles(reps, [2.5, 97.5]);
      interval = [lo, hi];
      const point = corrected - ece;
      biasCorrected = 2 * point - sum / finite;
      basicInterval = [2 * point - hi, 2 * point - lo];
    }
  }
  return { ece, corrected, estimate: corrected - ece, interval, biasCorrected, basicInterval, unauditedStrata };
}
