/**
 * The answer normalizer shared by the exact clusterer, the embedding clusterer's first merge and
 * the alias grader. It follows the SQuAD/TriviaQA evaluation convention (lower-case, drop
 * punctuation, drop the articles a/an/the, collapse white space), made Unicode-aware:
 * compatibility forms are unified (NFKD) and accents dropped, so "Café" and "cafe" agree.
 * Punctuation is deleted rather than replaced by a space, so "U.S." and "US" agree; a hyphen
 * or slash between words becomes a space, so "New-York" and "New York" agree.
 */
const WORD_JOINERS = /[-‐-―/]/g;
const PUNCTUATION = /[\p{P}\p{S}]/gu;
const MARKS = /\p{M}/gu;
const ARTICLES = /\b(a|an|the)\b/g;

export function normalizeAnswer(text: string): string {
  return text
    .normalize('NFKD')
    .replace(MARKS, '')
    .toLowerCase()
    .replace(WORD_JOINERS, ' ')
    .replace(PUNCTUATION, '')
    .replace(ARTICLES, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Whole-word tokens of a normalized answer. */
export function answerTokens(normalized: string): string[] {
  return normalized === '' ? [] : normalized.split(' ');
}
