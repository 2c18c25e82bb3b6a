/**
 * One reply to one multiple-choice question, turned into what ConfidenceBench scores: the chosen
 * option, the stated probability that it is correct, and whether it is. Failed replies become the
 * uniform guess here, with the reason kept, so they are counted and shown rather than dropped.
 */
import type { McQuestion } from './prompt';
import { parseMcReply, type McFailure, type McParseMethod } from './reply-parse';
import { uniformGuess } from './uniform-guess';

export interface McOutcome {
  id: string;
  category?: string;
  /** Number of options. */
  k: number;
  /** Index of the chosen option (the fallback's random one when `fallback` is set). */
  choice: number;
  letter: string;
  gold: number;
  goldLetter: string;
  /** Stated probability in [0, 1] that the chosen option is correct (1/k for a fallback). */
  probability: number;
  correct: 0 | 1;
  method: McParseMethod | 'uniform-fallback';
  /** Why the reply was replaced by the uniform guess; null when it was read. */
  fallback: McFailure | 'request-failed' | null;
  fallbackDetail?: string;
}

/**
 * `reply` is the model's text, or null when the request itself failed after its retries; that
 * too is scored as the uniform guess (ConfidenceBench excludes nothing), with its own reason.
 */
export function mcOutcome(q: McQuestion, reply: string | null, runSeed: number): McOutcome {
  const k = q.options.length;
  const base = { id: q.id, category: q.category, k, gold: q.gold, goldLetter: q.letters[q.gold] };
  const parsed = reply === null ? null : parseMcReply(reply, k);
  if (parsed && parsed.ok) {
    return { ...base, choice: parsed.index, letter: parsed.letter, probability: parsed.probability, correct: parsed.index === q.gold ? 1 : 0, method: parsed.method, fallback: null };
  }
  const guess = uniformGuess(runSeed, q.id, k);
  return {
    ...base,
    choice: guess.index,
    letter: q.letters[guess.index],
    probability: guess.probability,
    correct: guess.index === q.gold ? 1 : 0,
    method: 'uniform-fallback',
    fallback: parsed ? parsed.reason : 'request-failed',
    fallbackDetail: parsed ? parsed.detail : 'the request failed',
  };
}
