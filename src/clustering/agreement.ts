/**
 * How far two clusterings of the same samples agree (e.g. LLM judge vs embeddings), question by
 * question and over a run.
 *
 * - Rand index: share of sample pairs on which both clusterings agree (together in both or apart
 *   in both). 1 when n < 2.
 * - Adjusted Rand index (Hubert & Arabie 1985), in the pair-confusion form scikit-learn uses,
 *   with its conventions: 1 when the two clusterings put no pair differently (this covers the
 *   degenerate all-in-one / all-singletons cases, where the ordinary formula divides by zero).
 * - Same modal class: the two modal classes (first largest, as scored) are the same answer when
 *   each holds a strict majority of the other, i.e. |A∩B| > |A|/2 and |A∩B| > |B|/2. Identical
 *   member sets are the strict case (`modalIdentical`); `modalJaccard` = |A∩B| / |A∪B|.
 */
export interface ClusteringAgreement {
  n: number;
  randIndex: number;
  adjustedRandIndex: number;
  sameModalClass: boolean;
  modalIdentical: boolean;
  modalJaccard: number;
}

/** tp: pairs together in both; fp/fn together in one only; tn apart in both. */
export function pairConfusion(a: ArrayLike<number>, b: ArrayLike<number>): { tp: number; fp: number; fn: number; tn: number } {
  const n = a.length;
  if (b.length !== n) throw new Error(`pairConfusion: clusterings of different lengths (${n} vs ${b.length})`);
  const contingency = new Map<string, number>();
  const rows = new Map<number, number>();
  const cols = new Map<number, number>();
  for (let i = 0; i < n; i++) {
    const key = `${a[i]}|${b[i]}`;
    contingency.set(key, (contingency.get(key) ?? 0) + 1);
    rows.set(a[i], (rows.get(a[i]) ?? 0) + 1);
    cols.set(b[i], (cols.get(b[i]) ?? 0) + 1);
  }
  const pairs = (c: number) => (c * (c - 1)) / 2;
  let both = 0;
  for (const c of contingency.values()) both += pairs(c);
  let inA = 0;
  for (const c of rows.values()) inA += pairs(c);
  let inB = 0;
  for (const c of cols.values()) inB += pairs(c);
  const total = pairs(n);
  return { tp: both, fp: inB - both, fn: inA - both, tn: total - inA - inB + both };
}

export function randIndex(a: ArrayLike<number>, b: ArrayLike<number>): number {
  const { tp, fp, fn, tn } = pairConfusion(a, b);
  const total = tp + fp + fn + tn;
  return total === 0 ? 1 : (tp + tn) / total;
}

export function adjustedRandIndex(a: ArrayLike<number>, b: ArrayLike<number>): number {
  const { tp, fp, fn, tn } = pairConfusion(a, b);
  if (fn === 0 && fp === 0) return 1;
  return (2 * (tp * tn - fn * fp)) / ((tp + fn) * (fn + tn) + (tp + fp) * (fp + tn));
}

/** Members of the first largest class of an assignment vector. */
export function modalMembers(assignments: ArrayLike<number>): number[] {
  const sizes = new Map<number, number>();
  for (let i = 0; i < assignments.length; i++) sizes.set(assignments[i], (sizes.get(assignments[i]) ?? 0) + 1);
  // Lowest class index among the largest, as the estimators choose it.
  let modal = -1;
  let best = 0;
  for (const [k, s] of [...sizes.entries()].sort((x, y) => x[0] - y[0])) {
    if (s > best) {
      best = s;
      modal = k;
    }
  }
  const out: number[] = [];
  for (let i = 0; i < assignments.length; i++) if (assignments[i] === modal) out.push(i);
  return out;
}

export function clusteringAgreement(a: ArrayLike<number>, b: ArrayLike<number>): ClusteringAgreement {
  const ma = modalMembers(a);
  const mb = new Set(modalMembers(b));
  const common = ma.filter((i) => mb.has(i)).length;
  const union = ma.length + mb.size - common;
  return {
    n: a.length,
    randIndex: randIndex(a, b),
    adjustedRandIndex: adjustedRandIndex(a, b),
    sameModalClass: common * 2 > ma.length && common * 2 > mb.size,
    modalIdentical: common === ma.length && common === mb.size,
    modalJaccard: union === 0 ? 1 : common / union,
  };
}

export interface AgreementSummary {
  questions: number;
  meanRandIndex: number;
  meanAdjustedRandIndex: number;
  /** Share of questions whose modal class is the same answer under both clusterings. */
  sameModalShare: number;
  modalIdenticalShare: number;
}

/** Plain means over questions; NaN for an empty list (the core's convention). */
export function summarizeAgreement(perQuestion: ClusteringAgreement[]): AgreementSummary {
  const q = perQuestion.length;
  const mean = (f: (x: ClusteringAgreement) => number) => (q === 0 ? NaN : perQuestion.reduce((s, x) => s + f(x), 0) / q);
  return {
    questions: q,
    meanRandIndex: mean((x) => x.randIndex),
    meanAdjustedRandIndex: mean((x) => x.adjustedRandIndex),
    sameModalShare: mean((x) => (x.sameModalClass ? 1 : 0)),
    modalIdenticalShare: mean((x) => (x.modalIdentical ? 1 : 0)),
  };
}
