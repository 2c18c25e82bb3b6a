/**
 * The answers' similarity from an NLI model's entailment probabilities (the entailment clusterer's
 * `similarity` setting): for two groups of identical answers a and b, the mean of P(a entails b)
 * and P(b entails a), as Lin, Trivedi & Sun 2023 ("Generating with Confidence", §4.1: W_ij =
 * (a_ij + a_ji) / 2, a_ij the entailment probability of answer i as premise and j as hypothesis)
 * build the graph their EigV, Deg and Ecc read. Stored in the compact form of model/rows.ts
 * AnswerSimilarity: a group per sample and the groups' g×g matrix, rounded to 4 decimals, a group
 * with itself 1 (two samples of one answer are the same answer).
 */
import type { AnswerSimilarity } from '../model/rows';

/** An ordered pair of texts, as the NLI model reads it (entailment.ts NliPair; not imported: that module imports this one). */
interface TextPair {
  premise: string;
  hypothesis: string;
}

/** Every ordered pair of distinct texts (premise a, hypothesis b), a before b in row-major order, a ≠ b. */
export function allOrderedPairs(texts: readonly string[]): TextPair[] {
  const pairs: TextPair[] = [];
  for (let a = 0; a < texts.length; a++) for (let b = 0; b < texts.length; b++) if (a !== b) pairs.push({ premise: texts[a], hypothesis: texts[b] });
  return pairs;
}

/**
 * The similarity of `n` samples in `groups`, from `entails[k]`, the entailment probability of the
 * k-th pair of allOrderedPairs over the groups' texts.
 */
export function entailmentSimilarity(n: number, groups: readonly { samples: readonly number[] }[], entails: readonly number[]): AnswerSimilarity {
  const g = groups.length;
  if (entails.length !== g * (g - 1)) throw new Error(`${entails.length} entailment probabilities for ${g} answers (${g * (g - 1)} ordered pairs)`);
  // Index of the ordered pair (a, b), a ≠ b, in allOrderedPairs' order: row a holds g − 1 pairs.
  const at = (a: number, b: number) => a * (g - 1) + (b < a ? b : b - 1);
  const of = new Array<number>(n).fill(0);
  groups.forEach((grp, a) => {
    for (const i of grp.samples) of[i] = a;
  });
  const matrix = new Array<number>(g * g);
  for (let a = 0; a < g; a++) {
    matrix[a * g + a] = 1;
    for (let b = a + 1; b < g; b++) {
      const mean = (entails[at(a, b)] + entails[at(b, a)]) / 2;
      if (!Number.isFinite(mean)) throw new Error(`the NLI model gave no entailment probability for answers ${a} and ${b}`);
      matrix[a * g + b] = matrix[b * g + a] = Math.round(Math.min(1, Math.max(0, mean)) * 1e4) / 1e4;
    }
  }
  return { source: 'entailment-probability', groups: of, matrix };
}
