/**
 * The multiple-choice prompt of the ConfidenceBench-style baseline: the model picks one option
 * letter and states, in percent, its probability that the chosen option is correct, as one JSON
 * object `{"answer": "<letter>", "probability": <0-100>}` (ConfidenceBench §3.2; wording ours).
 */
import type { Question, Result } from '../model/rows';
import type { ChatMessage } from '../model/provider';

export const MIN_OPTIONS = 2;
export const MAX_OPTIONS = 10;
export const OPTION_LETTERS: readonly string[] = ['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 'I', 'J'];
/** Part of every cached reply's key (reply-cache.ts): replies to another wording are never read back for this one. */
export const MC_PROMPT_VERSION = 'mc-json-v1';

/** A multiple-choice question checked once: options, their letters and the gold option. */
export interface McQuestion {
  id: string;
  question: string;
  options: string[];
  letters: string[];
  /** Index of the correct option. */
  gold: number;
  category?: string;
}

/** "A, B, C or D". */
function letterList(letters: string[]): string {
  return letters.length === 2 ? `${letters[0]} or ${letters[1]}` : `${letters.slice(0, -1).join(', ')} or ${letters[letters.length - 1]}`;
}

/**
 * The gold option of a dataset question: its `answer` may be the letter ("B", "(B)") or the
 * option's text (compared trimmed and case-insensitively). Anything else is an error naming the
 * question, never a silent guess.
 */
export function toMcQuestion(q: Question): Result<McQuestion> {
  const where = `question ${JSON.stringify(q.id)}`;
  const options = q.options;
  if (!options || options.length < MIN_OPTIONS || options.length > MAX_OPTIONS) {
    const count = options ? options.length : 0;
    return { ok: false, error: { kind: 'bad-question', where, message: `a multiple-choice question needs ${MIN_OPTIONS} to ${MAX_OPTIONS} options; it has ${count}` } };
  }
  const letters = OPTION_LETTERS.slice(0, options.length);
  const answer = q.answer.trim();
  const asLetter = /^\(?([A-Ja-j])\)?$/.exec(answer);
  let gold = asLetter ? letters.indexOf(asLetter[1].toUpperCase()) : -1;
  if (gold === -1) {
    const wanted = answer.toLowerCase();
    const matches = options.flatMap((o, i) => (o.trim().toLowerCase() === wanted ? [i] : []));
    if (matches.length === 1) gold = matches[0];
  }
  if (gold === -1) {
    return { ok: false, error: { kind: 'bad-question', where, message: `the answer ${JSON.stringify(q.answer)} is neither an option letter (${letterList(letters)}) nor the text of exactly one option` } };
  }
  return { ok: true, value: { id: q.id, question: q.question, options: [...options], letters, gold, category: q.category } };
}

/** The one user message sent for a question (no system message: some APIs treat it differently). */
export function buildMcMessages(q: McQuestion): ChatMessage[] {
  const k = q.options.length;
  const lines = q.options.map((o, i) => `${q.letters[i]}) ${o}`);
  const uniform = Math.round((100 / k) * 10) / 10;
  const content = [
    'Answer the following multiple-choice question.',
    '',
    `Question: ${q.question}`,
    '',
    'Options:',
    ...lines,
    '',
    'Reply with a single JSON object and nothing else, in this form:',
    '{"answer": "<letter>", "probability": <number from 0 to 100>}',
    `"answer" is the letter of the option you choose (${letterList(q.letters)}).`,
    '"probability" is your probability, in percent, that the option you chose is correct:',
    `100 means you are certain; ${uniform} means you are guessing at random among the ${k} options.`,
  ].join('\n');
  return [{ role: 'user', content }];
}
