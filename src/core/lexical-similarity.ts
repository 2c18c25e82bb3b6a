/**
 * Similarities computed from the answers' text alone, as LM-Polygraph computes them (IINemo/
 * lm-polygraph at commit efea882d810d07770e71d3a80e02416d09751435).
 *
 * - Lexical similarity (Fomicheva et al. 2020, "Unsupervised Quality Estimation for Neural Machine
 *   Translation"; estimators/lexical_similarity.py, metric "rougeL"): the mean ROUGE-L F-measure
 *   over the m(m−1)/2 unordered pairs i < j (no i = j pairs). A
 *   CONFIDENCE (larger means the samples agree more); LM-Polygraph returns its negation as the
 *   uncertainty. NaN for fewer than 2 answers (np.mean of no pairs). LM-Polygraph's scorer stems
 *   (use_stemmer=True); see rouge-l.ts for what differs without a stemmer.
 * - Jaccard similarity matrix (estimators/common.py `_compute_Jaccard_score`, the "Jaccard_score"
 *   option of EigV, Deg and Ecc): W_ij = |A_i ∩ A_j| / |A_i ∪ A_j| over the sets of whitespace-
 *   separated words after lowercasing (Python's `lower().split()`, punctuation kept), 0 when both
 *   sets are empty, and a diagonal of 1 (np.eye), even for an empty answer.
 */
import { rougeLTokens, rougeTokenize, type Stemmer } from './rouge-l';

export interface LexicalSimilarityOptions {
  /** Applied to tokens longer than 3 characters (LM-Polygraph uses NLTK's Porter stemmer). */
  stem?: Stemmer;
}

/**
 * Mean pairwise ROUGE-L F over the answers (pairs i < j); NaN for fewer than two answers.
 * Samples repeat often, so answers with the same tokens are scored once: each distinct pair's F
 * is weighted by how many sample pairs it stands for, and a distinct answer paired with itself
 * scores 1 (0 when it has no tokens). The sum is grouped differently from np.mean's, which can
 * move the last bit or two, nothing more.
 */
export function lexicalSimilarity(answers: readonly string[], options: LexicalSimilarityOptions = {}): number {
  const m = answers.length;
  if (m < 2) return NaN;
  const groups = new Map<string, { tokens: string[]; count: number }>();
  for (const answer of answers) {
    const tokens = rougeTokenize(answer, options.stem);
    const key = tokens.join(' ');
    const group = groups.get(key);
    if (group) group.count++;
    else groups.set(key, { tokens, count: 1 });
  }
  const distinct = [...groups.values()];
  let sum = 0;
  for (let u = 0; u < distinct.length; u++) {
    const a = distinct[u];
    if (a.tokens.length > 0) sum += (a.count * (a.count - 1)) / 2;
    for (let v = u + 1; v < distinct.length; v++) sum += a.count * distinct[v].count * rougeLTokens(a.tokens, distinct[v].tokens).fmeasure;
  }
  return sum / ((m * (m - 1)) / 2);
}

// Python's str.split() separators (str.isspace): JavaScript's \s lacks \x1c-\x1f and \x85 and adds \ufeff.
const PYTHON_WHITESPACE = /[\t\n\v\f\r\x1c-\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+/;

function wordSet(text: string): Set<string> {
  return new Set(text.toLowerCase().split(PYTHON_WHITESPACE).filter((w) => w.length > 0));
}

/** LM-Polygraph's Jaccard similarity matrix of the answers (row-major m×m, diagonal 1). */
export function jaccardSimilarity(answers: readonly string[]): Float64Array {
  const m = answers.length;
  const sets = answers.map(wordSet);
  const w = new Float64Array(m * m);
  for (let i = 0; i < m; i++) {
    w[i * m + i] = 1;
    for (let j = i + 1; j < m; j++) {
      let intersection = 0;
      for (const x of sets[i]) if (sets[j].has(x)) intersection++;
      const union = sets[i].size + sets[j].size - intersection;
      w[i * m + j] = w[j * m + i] = union === 0 ? 0 : intersection / union;
    }
  }
  return w;
}
