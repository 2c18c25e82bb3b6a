/**
 * An adaptive run's rounds inside the sampling loop (sampling.ts): per question, the answer key
 * of each slot held, which slots were found in the cache, how many of its requests are in flight
 * and how far the progress has counted. When a question's round is all in, the stopping rule is
 * replayed over its keys (adaptive-slots.ts) to name the next round's slots or stop the question.
 *
 * The progress of an adaptive run: its total starts at questions × the maximum, an upper bound
 * (`upTo`) until every question has stopped, and shrinks to what each question used as it stops.
 * A slot found in the cache counts only once the rule reaches it (slots past the rule's stopping
 * point, e.g. cached by a fixed-n run, are never counted).
 */
import type { AdaptiveRule } from '../core/adaptive-rule.ts';
import type { Sample } from '../model/rows.ts';
import { readQuestions, type SampleCache } from '../model/sample-cache.ts';
import type { SamplingProgress } from '../model/run-spec.ts';
import { adaptiveState, answerKey } from './adaptive-slots.ts';

/** One question's rounds so far. */
export interface QuestionRounds {
  /** Each slot's answer key (undefined: not stored). */
  keys: (string | undefined)[];
  /** Slots found in the cache when the run started (counted once the rule reaches them). */
  cached: boolean[];
  /** This question's requests in flight: its round is all in when none are and nothing is missing. */
  inFlight: number;
  /** Slots below this are counted in the progress (cached or fetched). */
  frontier: number;
  /** Set when the rule has stopped the question: its selection block and the samples it used. */
  done?: { selection: number; samples: number };
}

export class AdaptiveRounds {
  /** Questions the rule has not stopped yet. */
  private unstopped: number;

  constructor(
    private readonly rule: AdaptiveRule,
    questions: number,
    private readonly samples: SamplingProgress['samples'],
  ) {
    this.unstopped = questions;
    samples.upTo = questions > 0;
  }

  /**
   * The rounds of a slice of questions (key bases `bases`, stored slots `stored`) as the run
   * starts: the answers of the stored slots, read only for questions that have some.
   */
  async start(cache: SampleCache, bases: readonly string[], stored: readonly boolean[][]): Promise<QuestionRounds[]> {
    const n = this.rule.maxSamples;
    const some = bases.map((_, j) => j).filter((j) => stored[j].some(Boolean));
    const read = some.length > 0 ? await readQuestions(cache, some.map((j) => bases[j]), n) : [];
    const held = new Map(some.map((j, k) => [j, read[k]]));
    return bases.map((_, j) => {
      const keys: (string | undefined)[] = new Array(n);
      const cached: boolean[] = new Array(n).fill(false);
      const samples = held.get(j);
      for (let i = 0; i < n; i++) {
        const sample = samples?.[i];
        if (sample === undefined) continue;
        keys[i] = answerKey(sample.answer);
        cached[i] = true;
      }
      return { keys, cached, inFlight: 0, frontier: 0 };
    });
  }

  /** New replies of a question: their answer keys, for the rule's next replay. */
  record(q: QuestionRounds, slots: readonly number[], samples: readonly Sample[]): void {
    samples.forEach((sample, j) => (q.keys[slots[j]] = answerKey(sample.answer)));
  }

  /**
   * A question whose current round is all in: the rule replayed over its slots gives the next
   * round's missing slots, or stops the question ([] then, and its total shrinks to what it
   * used). Cached slots the rule now reaches are counted as found in the cache.
   */
  advance(q: QuestionRounds): number[] {
    const { samples } = this;
    const state = adaptiveState(q.keys, this.rule);
    const frontier = state.done ? state.samples : state.plan.selection + state.plan.heldOut + (state.plan.next.phase === 'done' ? 0 : state.plan.next.draw);
    for (let i = q.frontier; i < frontier; i++) {
      if (!q.cached[i]) continue;
      samples.cached++;
      samples.done++;
    }
    q.frontier = Math.max(q.frontier, frontier);
    if (!state.done) return state.missing;
    q.done = { selection: state.selection, samples: state.samples };
    samples.total -= this.rule.maxSamples - state.samples;
    samples.upTo = --this.unstopped > 0;
    return [];
  }
}
