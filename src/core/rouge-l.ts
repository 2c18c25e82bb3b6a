/**
 * ROUGE-L between two texts, as Google's `rouge_score` package computes it (rouge_scorer.py
 * `_score_lcs`, tokenize.py `tokenize`; the package LM-Polygraph's lexical similarity calls).
 *
 * Tokenizer (rouge_score's default): lowercase; every run of characters outside [a-z0-9] becomes
 * one space; split on whitespace; optionally stem each token longer than 3 characters; drop empty
 * tokens. So "U.S.A." → ["u", "s", "a"] and "Café" → ["caf"]. JavaScript's toLowerCase and
 * Python's str.lower both apply Unicode's default case mapping, and anything non-ASCII is dropped
 * afterwards, so the tokens agree.
 *
 * Stemming: rouge_score with use_stemmer=True (LM-Polygraph's setting) applies NLTK's
 * PorterStemmer (NLTK_EXTENSIONS mode). It is not reproduced here (a few hundred lines with NLTK's
 * own departures from Porter 1980); callers may pass a stemmer. Without one, tokens that differ
 * only by a suffix ("answers"/"answer", "running"/"run") do not match, so the score can be lower
 * than LM-Polygraph's; identical and suffix-free answers score the same.
 *
 * Score: LCS length l over the token sequences; precision = l/|prediction|, recall = l/|target|,
 * F = 2PR/(P + R) (0 when P + R = 0); every value 0 when either text has no tokens. F is
 * symmetric in the two texts.
 */

export interface RougeScore {
  precision: number;
  recall: number;
  fmeasure: number;
}

/** A stemmer applied to tokens longer than 3 characters, as rouge_score does. */
export type Stemmer = (token: string) => string;

/** rouge_score's default tokenizer. */
export function rougeTokenize(text: string, stem?: Stemmer): string[] {
  const words = text.toLowerCase().replace(/[^a-z0-9]+/g, ' ').split(/\s+/);
  const stemmed = stem ? words.map((w) => (w.length > 3 ? stem(w) : w)) : words;
  return stemmed.filter((w) => /^[a-z0-9]+$/.test(w));
}

/** Length of the longest common subsequence of two token lists (two-row dynamic programme). */
export function lcsLength(a: readonly string[], b: readonly string[]): number {
  if (a.length === 0 || b.length === 0) return 0;
  let prev = new Int32Array(b.length + 1);
  let row = new Int32Array(b.length + 1);
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      row[j] = a[i - 1] === b[j - 1] ? prev[j - 1] + 1 : Math.max(prev[j], row[j - 1]);
    }
    [prev, row] = [row, prev];
  }
  return prev[b.length];
}

/** rouge_score's `_score_lcs` on already tokenized texts. */
export function rougeLTokens(target: readonly string[], prediction: readonly string[]): RougeScore {
  if (target.length === 0 || prediction.length === 0) return { precision: 0, recall: 0, fmeasure: 0 };
  const l = lcsLength(target, prediction);
  const precision = l / prediction.length;
  const recall = l / target.length;
  const fmeasure = precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0;
  return { precision, recall, fmeasure };
}

/** `RougeScorer(['rougeL'], use_stemmer = stem given).score(target, prediction)['rougeL']`. */
export function rougeL(target: string, prediction: string, stem?: Stemmer): RougeScore {
  return rougeLTokens(rougeTokenize(target, stem), rougeTokenize(prediction, stem));
}
