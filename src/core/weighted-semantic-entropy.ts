/**
 * Likelihood-weighted semantic entropy of one question: the semantic classes weighted by the
 * sequence probabilities of their members instead of by their counts. Two estimators, each as its
 * reference implementation computes it, both from each sample's class label and sequence
 * log-probability ℓᵢ (the sum of its tokens' log-probabilities):
 *
 * - `weightedSemanticEntropy` (Farquhar et al. 2024, Nature; the semantic_uncertainty code's
 *   logsumexp_by_id(agg='sum_normalized') then predictive_entropy_rao): the class probability is
 *   the sum of its members' sequence probabilities over that of all samples,
 *   p_c = Σ_{i∈c} e^{ℓᵢ} / Σᵢ e^{ℓᵢ}, and H = −Σ_c p_c ln p_c (nats). The signal
 *   semantic_entropy_weighted (model/signals.ts) is this H, stored as exp(−H).
 * - `monteCarloSemanticEntropy` (Kuhn, Gal & Farquhar 2023; LM-Polygraph's SemanticEntropy with
 *   its defaults, class_probability_estimation='sum', entropy_estimation='mean'): the class's
 *   log-probability is the unnormalised log Σ_{i∈c} e^{ℓᵢ}, averaged over the samples:
 *   H = −(1/m) Σⱼ log Σ_{i∈c(j)} e^{ℓᵢ}. Kept to check against LM-Polygraph's code; not a signal.
 *
 * Every sum of exponentials is a log-sum-exp shifted by its largest term, so sequences of hundreds
 * of tokens (ℓ of −1000) do not underflow to log 0. Classes with no member do not enter.
 * NaN when a label or log-probability is missing or not finite, or the lengths differ.
 */

/** log Σ e^{xᵢ} over the given values, shifted by the largest. */
function logSumExp(values: readonly number[]): number {
  let max = -Infinity;
  for (const v of values) if (v > max) max = v;
  if (max === -Infinity) return -Infinity;
  let s = 0;
  for (const v of values) s += Math.exp(v - max);
  return max + Math.log(s);
}

/** Each class's members' log-probabilities, by label; undefined when the input is unusable. */
function byClass(labels: ArrayLike<number>, logprobs: ArrayLike<number>): Map<number, number[]> | undefined {
  if (labels.length !== logprobs.length || labels.length === 0) return undefined;
  const out = new Map<number, number[]>();
  for (let i = 0; i < labels.length; i++) {
    const c = labels[i];
    const l = logprobs[i];
    if (!Number.isInteger(c) || c < 0 || !Number.isFinite(l)) return undefined;
    let members = out.get(c);
    if (!members) out.set(c, (members = []));
    members.push(l);
  }
  return out;
}

/** Farquhar et al. 2024: −Σ_c p_c ln p_c with p_c the class's share of the samples' sequence probability. */
export function weightedSemanticEntropy(labels: ArrayLike<number>, logprobs: ArrayLike<number>): number {
  const classes = byClass(labels, logprobs);
  if (!classes) return NaN;
  const logZ = logSumExp(Array.from(logprobs));
  let h = 0;
  for (const members of classes.values()) {
    const lp = logSumExp(members) - logZ;
    h -= Math.exp(lp) * lp;
  }
  // One class: p = 1 exactly in exact arithmetic; rounding can leave a −0 or a ±1e-17.
  return classes.size === 1 ? 0 : Math.max(0, h);
}

/** LM-Polygraph's default SemanticEntropy: −(1/m) Σⱼ log Σ_{i∈c(j)} e^{ℓᵢ}, class sums unnormalised. */
export function monteCarloSemanticEntropy(labels: ArrayLike<number>, logprobs: ArrayLike<number>): number {
  const classes = byClass(labels, logprobs);
  if (!classes) return NaN;
  const classLp = new Map<number, number>();
  for (const [c, members] of classes) classLp.set(c, logSumExp(members));
  let s = 0;
  for (let j = 0; j < labels.length; j++) s += classLp.get(labels[j])!;
  return -s / labels.length;
}
