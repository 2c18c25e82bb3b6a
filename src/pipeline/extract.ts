/**
 * Reads the final answer and the stated confidence out of a raw reply, as SEMECE.md defines it:
 * Answer = text after the first `Answer:` up to a newline followed by `Confidence` (or the end),
 * trimmed; when that is empty or a non-answer ("see above"), the last 200 characters of the reply
 * stand in and the sample says so. Confidence = the first `Confidence: <number>` / 100, clamped.
 *
 * One tolerance beyond the letter of the spec, because models often format the last lines in
 * Markdown: `**Answer:** x` / `**Confidence:** 80%` (emphasis around the label) are read the same
 * way, and emphasis wrapping the whole answer is removed. Plain replies are unaffected.
 */
import type { Sample } from '../model/rows.ts';

export const FALLBACK_TAIL_CHARS = 200;

const ANSWER_LABEL = 'Answer:';
// A newline, optional Markdown emphasis/quote/list marks, then the Confidence label.
const CONFIDENCE_BREAK = /\n[\s*_>#-]*Confidence/;
const CONFIDENCE_VALUE = /Confidence:[\s*_]*(-?\d+(?:\.\d+)?)/;

const NON_ANSWERS = new Set([
  'see above', 'as above', 'see the above', 'see reasoning above', 'see explanation above', 'see answer above',
  'above', '(see above)', '...', '…', '[answer]', '<answer>', '<your short final answer>', 'your answer', 'n/a', '-',
]);

function stripEmphasis(s: string): string {
  return s.replace(/^[*_`]+/, '').replace(/[*_`]+$/, '').trim();
}

/** True when an extracted answer carries no answer of its own. */
export function isNonAnswer(answer: string): boolean {
  const a = answer.trim().toLowerCase().replace(/[.!]+$/, '');
  return a === '' || NON_ANSWERS.has(a) || NON_ANSWERS.has(`${a}.`);
}

export function extractAnswer(raw: string): Pick<Sample, 'answer' | 'answerMethod'> {
  if (raw.trim() === '') return { answer: '', answerMethod: 'empty' };
  const at = raw.indexOf(ANSWER_LABEL);
  if (at >= 0) {
    const rest = raw.slice(at + ANSWER_LABEL.length);
    const stop = rest.search(CONFIDENCE_BREAK);
    const answer = stripEmphasis((stop >= 0 ? rest.slice(0, stop) : rest).trim());
    if (!isNonAnswer(answer)) return { answer, answerMethod: 'answer-line' };
  }
  return { answer: raw.trim().slice(-FALLBACK_TAIL_CHARS).trim(), answerMethod: 'fallback-tail' };
}

export function extractConfidence(raw: string): Pick<Sample, 'confidence' | 'confidenceMethod'> {
  const m = CONFIDENCE_VALUE.exec(raw);
  if (!m) return { confidence: null, confidenceMethod: 'missing' };
  const value = Number(m[1]) / 100;
  if (!Number.isFinite(value)) return { confidence: null, confidenceMethod: 'missing' };
  return { confidence: Math.min(1, Math.max(0, value)), confidenceMethod: 'confidence-line' };
}

/** A Sample from one raw reply; the raw text is always kept as it came. */
export function extractSample(raw: string, finishReason: string | null = null): Sample {
  return { raw, ...extractAnswer(raw), ...extractConfidence(raw), finishReason };
}
