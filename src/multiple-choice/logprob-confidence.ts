/**
 * Logprob confidence on a multiple-choice reply: the softmax over the option letters of their
 * first-token log-probabilities at the answer position.
 *
 * Finding the position: the reply is the JSON `{"answer": "B", ...}`; in the concatenated token text
 * the first `"answer"` key followed by `:`, optional spaces, an optional quote and an optional "("
 * is located, and the answer position is the character right after it (the letter). The token
 * covering that character is the answer token; its `top` list holds the alternatives the model
 * weighed there.
 *
 * Reading the alternatives: an alternative token means letter L when, with leading spaces, quotes
 * and opening brackets removed, it begins with the capital L not followed by another letter ("B",
 * " B", "\"B", "B\"," all mean B). Several tokens meaning the same letter are pooled (log-sum-exp):
 * each is a different way of writing that choice. Only capitals count: the prompt asks for capitals,
 * and a lower-case "a" is as likely the English word as an option.
 *
 * Letters absent from the top list: by default their log-probability is −∞ (they get probability
 * 0), which makes the result an upper bound on the chosen letter's share. With `absent: 'floor'`
 * they get the smallest log-probability listed at that position instead, which is an upper bound on
 * each of their own log-probabilities, so the result is then a lower bound. The absent letters are
 * always reported so the view can say how many were missing.
 */
import type { TokenLogprob } from '../model/provider';
import { tokenAt, tokenSpans, tokenText } from './token-spans';

export type AbsentLetters = 'zero' | 'floor';

export type McLogprobResult =
  | {
      ok: true;
      /** Softmax probability per option, in option order. */
      distribution: number[];
      /** Option the reply's token chose (index), and its probability. */
      chosen: number;
      confidence: number;
      /** Letters among the options that were not in the top list at the answer position. */
      absent: string[];
      tokenIndex: number;
    }
  | { ok: false; reason: 'no-logprobs' | 'answer-position-not-found' | 'no-top-logprobs' | 'chosen-not-an-option'; detail: string };

const ANSWER_KEY = /"answer"\s*:\s*"?\s*\(?\s*/i;

function letterOf(token: string): string | null {
  const m = /^[\s"'([]*([A-Z])(?![A-Za-z])/.exec(token);
  return m ? m[1] : null;
}

function logSumExp(a: number, b: number): number {
  if (a === -Infinity) return b;
  if (b === -Infinity) return a;
  const m = Math.max(a, b);
  return m + Math.log(Math.exp(a - m) + Math.exp(b - m));
}

/** Softmax of log-scores (−∞ allowed); the max is subtracted first so large values do not overflow. */
export function softmax(logits: readonly number[]): number[] {
  const m = Math.max(...logits);
  if (m === -Infinity) return logits.map(() => NaN);
  const e = logits.map((l) => Math.exp(l - m));
  const z = e.reduce((t, v) => t + v, 0);
  return e.map((v) => v / z);
}

export function mcLogprobConfidence(
  logprobs: readonly TokenLogprob[] | undefined,
  letters: readonly string[],
  options: { absent?: AbsentLetters } = {},
): McLogprobResult {
  if (!logprobs || logprobs.length === 0) return { ok: false, reason: 'no-logprobs', detail: 'the reply carries no token log-probabilities' };
  const text = tokenText(logprobs);
  const key = ANSWER_KEY.exec(text);
  if (!key) return { ok: false, reason: 'answer-position-not-found', detail: 'no "answer" key in the tokens of the reply' };
  const spans = tokenSpans(logprobs);
  const tokenIndex = tokenAt(spans, key.index + key[0].length);
  if (tokenIndex === -1) return { ok: false, reason: 'answer-position-not-found', detail: 'the reply ends before the answer letter' };
  const token = logprobs[tokenIndex];
  // The token may start before the letter (e.g. `"B`): read the letter from the answer position.
  const prefix = token.token.slice(0, key.index + key[0].length - spans[tokenIndex].start);
  const chosenLetter = letterOf(token.token.slice(prefix.length));
  const chosen = chosenLetter === null ? -1 : letters.indexOf(chosenLetter);
  if (chosen === -1) return { ok: false, reason: 'chosen-not-an-option', detail: `the token ${JSON.stringify(token.token)} at the answer position is not an option letter` };
  if (!token.top || token.top.length === 0) {
    return { ok: false, reason: 'no-top-logprobs', detail: 'no alternatives (top_logprobs) at the answer position: ask for top_logprobs ≥ the number of options' };
  }
  const pooled = new Map<string, number>();
  // The sampled token is always an alternative, even when a provider leaves it out of `top`.
  const alternatives = token.top.some((t) => t.token === token.token) ? token.top : [...token.top, { token: token.token, logprob: token.logprob }];
  for (const alt of alternatives) {
    // An alternative that shares the answer token's lead-in (`":"` in `":"B`) is read after it.
    const l = letterOf(prefix && alt.token.startsWith(prefix) ? alt.token.slice(prefix.length) : alt.token);
    if (l !== null && letters.includes(l)) pooled.set(l, logSumExp(pooled.get(l) ?? -Infinity, alt.logprob));
  }
  const floor = Math.min(...alternatives.map((t) => t.logprob));
  const absent = letters.filter((l) => !pooled.has(l));
  const logits = letters.map((l) => pooled.get(l) ?? (options.absent === 'floor' ? floor : -Infinity));
  const distribution = softmax(logits);
  return { ok: true, distribution, chosen, confidence: distribution[chosen], absent, tokenIndex };
}
