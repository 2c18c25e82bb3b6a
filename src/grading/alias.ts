/**
 * The alias matcher: no model. Rules, in order:
 * 1. A refusal or non-answer ("I don't know", "not sure", "unknown", "cannot answer", "N/A",
 *    an empty answer) is NOT_ATTEMPTED.
 * 2. Multiple choice (the question has options): the option the answer chooses (letter or exact
 *    option text) against the option the gold answer names — CORRECT or INCORRECT.
 * 3. Exact: the normalized answer equals the normalized gold answer or any alias → CORRECT.
 * 4. Containment: a normalized gold answer or alias that has ≥ 2 words, or is a number, occurs in
 *    the normalized answer as a whole-word sequence → CORRECT ("the Eiffel Tower in Paris"
 *    contains "eiffel tower"; "in 1969" contains "1969"). A one-word non-number alias is not
 *    searched for inside longer answers: "Paris" would then accept "not Paris but Lyon".
 *    The reverse (the answer inside the gold: "Einstein" for "Albert Einstein") is not accepted;
 *    alias lists usually carry the short forms, and the judge grader is there for the rest.
 * 5. Otherwise INCORRECT.
 */
import type { Grade } from '../model/rows';
import { answerTokens, normalizeAnswer } from '../clustering/normalize';
import { chosenOption, OPTION_LETTERS } from '../clustering/exact';
import type { GradeItem, GradeOutcome, Grader } from './grader';

const REFUSALS = [
  /^(i )?(dont|do not|cannot|cant|can not) (know|say|tell|answer|determine|be sure)\b/,
  /^(im |i am )?(not sure|unsure|uncertain)\b/,
  /^(unknown|no answer|no idea|n a|na|not applicable|none given|unanswerable)$/,
  /^(im |i am )?(sorry|unable)\b/,
  /^(there is )?(no way to know|insufficient information|not enough information)\b/,
];

/** Refusals are read without dropping articles ("N/A" would become "n", a bare "A" nothing). */
export function isRefusal(answer: string): boolean {
  const norm = answer
    .toLowerCase()
    .replace(/[-/]/g, ' ')
    .replace(/[\p{P}\p{S}]/gu, '')
    .replace(/\s+/g, ' ')
    .trim();
  return norm === '' || REFUSALS.some((r) => r.test(norm));
}

const NUMBER = /^\d+(\.\d+)?$/;

function containsSequence(haystack: string[], needle: string[]): boolean {
  outer: for (let i = 0; i + needle.length <= haystack.length; i++) {
    for (let j = 0; j < needle.length; j++) if (haystack[i + j] !== needle[j]) continue outer;
    return true;
  }
  return false;
}

/** The option index the gold answer names: a bare letter, or an option's text. */
function goldOption(gold: string, options: string[]): number {
  const letter = gold.trim().toUpperCase();
  if (letter.length === 1 && OPTION_LETTERS.indexOf(letter) >= 0 && OPTION_LETTERS.indexOf(letter) < options.length) return OPTION_LETTERS.indexOf(letter);
  return chosenOption(gold, options);
}

export function matchAliases(item: GradeItem): { grade: Grade; rule: string } {
  if (isRefusal(item.predicted)) return { grade: 'NOT_ATTEMPTED', rule: 'refusal' };
  if (item.options && item.options.length > 0) {
    const gold = goldOption(item.gold, item.options);
    if (gold >= 0) {
      const chosen = chosenOption(item.predicted, item.options);
      return chosen === gold ? { grade: 'CORRECT', rule: 'option' } : { grade: 'INCORRECT', rule: chosen < 0 ? 'no option chosen' : 'other option' };
    }
  }
  const predicted = normalizeAnswer(item.predicted);
  const golds = [item.gold, ...(item.aliases ?? [])].map(normalizeAnswer).filter((g) => g !== '');
  if (golds.includes(predicted)) return { grade: 'CORRECT', rule: 'exact' };
  const words = answerTokens(predicted);
  for (const g of golds) {
    const gw = answerTokens(g);
    if ((gw.length >= 2 || (gw.length === 1 && NUMBER.test(gw[0]))) && containsSequence(words, gw)) return { grade: 'CORRECT', rule: `contains "${g}"` };
  }
  return { grade: 'INCORRECT', rule: 'no match' };
}

export function createAliasGrader(): Grader {
  return {
    method: 'alias',
    async grade(item): Promise<GradeOutcome> {
      const { grade, rule } = matchAliases(item);
      return { ok: true, value: grade, rule };
    },
  };
}
