/**
 * Logprob confidence on an open answer: the probability the model gave to the tokens of its greedy
 * (temperature 0) answer, exp(Σ logprob) over the tokens that make up the extracted answer span.
 *
 * The span: the answer text as extracted from the reply (after `Answer:`) is searched in the
 * concatenated token text, first after the first `Answer:` and otherwise anywhere (last
 * occurrence, since the final answer comes last). Every token that overlaps the span counts in
 * full: a token " Paris" whose leading space lies outside the span still belongs to the answer,
 * because the model chose it as one unit. Tokens of the `Answer:` label, the reasoning before it
 * and the `Confidence:` line after it do not count: they say nothing about which answer was given.
 * This is the joint probability of the answer string (not length-normalised), so longer answers
 * get lower values; that is the quantity a greedy decoder assigns to having said exactly this.
 */
import type { TokenLogprob } from '../model/provider';
import { tokenSpans, tokenText } from './token-spans';

export type AnswerLogprobResult =
  | { ok: true; confidence: number; logprob: number; tokens: number; span: [number, number] }
  | { ok: false; reason: 'no-logprobs' | 'empty-answer' | 'answer-not-found'; detail: string };

/** [start, end) of `answer` in `text`, looked for after the first "Answer:" and then anywhere. */
export function locateAnswer(text: string, answer: string): [number, number] | null {
  const label = /answer\s*:/i.exec(text);
  if (label) {
    const at = text.indexOf(answer, label.index + label[0].length);
    if (at !== -1) return [at, at + answer.length];
  }
  const last = text.lastIndexOf(answer);
  return last === -1 ? null : [last, last + answer.length];
}

export function answerLogprobConfidence(logprobs: readonly TokenLogprob[] | undefined, answer: string): AnswerLogprobResult {
  if (!logprobs || logprobs.length === 0) return { ok: false, reason: 'no-logprobs', detail: 'the reply carries no token log-probabilities' };
  const wanted = answer.trim();
  if (wanted === '') return { ok: false, reason: 'empty-answer', detail: 'no answer was extracted from the reply' };
  const span = locateAnswer(tokenText(logprobs), wanted);
  if (!span) return { ok: false, reason: 'answer-not-found', detail: 'the extracted answer does not occur in the tokens of the reply' };
  const spans = tokenSpans(logprobs);
  let logprob = 0;
  let tokens = 0;
  spans.forEach((s, i) => {
    if (s.start < span[1] && s.end > span[0]) {
      logprob += logprobs[i].logprob;
      tokens++;
    }
  });
  return { ok: true, confidence: Math.exp(logprob), logprob, tokens, span };
}
