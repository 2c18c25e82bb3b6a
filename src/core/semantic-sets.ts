/**
 * Signals of one question's partition of its m samples into semantic classes: the number of
 * semantic sets (NumSets) and the discrete semantic entropy. Both are UNCERTAINTIES (larger means
 * less confident).
 *
 * - NumSets (Lin, Trivedi & Sun 2023, arXiv 2305.19187; LM-Polygraph
 *   src/lm_polygraph/estimators/num_sem_sets.py at commit efea882d810d07770e71d3a80e02416d09751435):
 *   LM-Polygraph links samples i ≠ j when entail > contra in BOTH directions and counts the
 *   connected components of that graph (`numSetsFromNli`). With a partition from this app's
 *   clusterer, it is the number of non-empty classes K (`numSets`); the two agree whenever the
 *   clusterer's classes are the components of that graph.
 * - Discrete semantic entropy (Farquhar et al. 2024, Nature; Kuhn et al. 2023): H = −Σ_c p_c ln p_c
 *   (nats) over the class frequencies p_c = n_c/m. This is LM-Polygraph's "SemanticEntropyEmpirical"
 *   (semantic_entropy.py with class_probability_estimation="frequency", entropy_estimation="mean":
 *   −mean over samples of ln p_{class(sample)}, the same sum grouped by sample). It is the report's
 *   per-question `entropy` already (estimators.ts `semanticEntropy`, shown as exp(−H) by
 *   model/signals.ts `entropyConfidence`); `partitionSemanticEntropy` only feeds it labels.
 *
 * Labels are any non-negative integers, one per sample in sampling order; empty classes do not
 * count. m = 0: NumSets 0 (no sets), entropy NaN.
 */
import { semanticEntropy } from './estimators';

/**
 * Sizes of the non-empty classes, in ascending label order (the order estimators.ts sums the
 * entropy in, so the two agree to the last bit). Throws a RangeError on a label that is not a
 * non-negative integer.
 */
export function partitionClassSizes(labels: ArrayLike<number>): number[] {
  const m = labels.length;
  let max = -1;
  for (let i = 0; i < m; i++) {
    const c = labels[i];
    if (!Number.isInteger(c) || c < 0) throw new RangeError(`sample ${i}: class label ${c} is not a non-negative integer`);
    if (c > max) max = c;
  }
  // Labels are class indices in practice (below m); a sparse labelling falls back to a Map so that
  // one huge label cannot allocate a huge array.
  if (max < 4 * m + 64) {
    const counts = new Array<number>(max + 1).fill(0);
    for (let i = 0; i < m; i++) counts[labels[i]]++;
    return counts.filter((n) => n > 0);
  }
  const counts = new Map<number, number>();
  for (let i = 0; i < m; i++) counts.set(labels[i], (counts.get(labels[i]) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => a[0] - b[0]).map(([, n]) => n);
}

/** NumSets of a partition: the number of distinct labels (0 for no samples). */
export function numSets(labels: ArrayLike<number>): number {
  return partitionClassSizes(labels).length;
}

/** Discrete semantic entropy (nats) of a partition's class frequencies; NaN for no samples. */
export function partitionSemanticEntropy(labels: ArrayLike<number>): number {
  return semanticEntropy(partitionClassSizes(labels));
}

/**
 * LM-Polygraph's NumSemSets from its two NLI matrices (row-major m×m; entail[i][j] =
 * p_entail(sample i ⇒ sample j), contra likewise): i ≠ j are linked when entail > contra (strict)
 * in both directions; the value is the number of connected components. The diagonal is ignored.
 */
export function numSetsFromNli(entail: ArrayLike<number>, contra: ArrayLike<number>, m: number): number {
  if (entail.length !== m * m || contra.length !== m * m) throw new RangeError(`NLI matrices: need ${m * m} entries for m = ${m}, got ${entail.length} and ${contra.length}`);
  const parent = Array.from({ length: m }, (_, i) => i);
  const find = (i: number): number => {
    while (parent[i] !== i) {
      parent[i] = parent[parent[i]];
      i = parent[i];
    }
    return i;
  };
  let components = m;
  for (let i = 0; i < m; i++) {
    for (let j = i + 1; j < m; j++) {
      if (entail[i * m + j] > contra[i * m + j] && entail[j * m + i] > contra[j * m + i]) {
        const a = find(i);
        const b = find(j);
        if (a !== b) {
          parent[a] = b;
          components--;
        }
      }
    }
  }
  return components;
}
