/**
 * Adaptive sampling over the sample cache's slots (issue 27; the rule: core/adaptive-rule.ts).
 * An adaptive run's samples are ordinary samples in slots 0..k−1 of each question, so what the
 * rule has drawn is read off the cache: the rule is replayed over the answers of the longest run
 * of stored slots from slot 0, and its next step names the slots still to draw. Replaying rather
 * than recording decisions means a stopped run resumes where it stopped (mid-round too: the
 * round's stored slots are kept and only its holes are asked for), a fixed-n run's cached slots
 * serve an adaptive one (the rule ignores slots past the ones it uses) and the other way round.
 *
 * The rule sees exact-match answer keys: the answers normalised as the exact clusterer and the
 * alias grader normalise them (clustering/normalize.ts), whatever clusterer the run uses later.
 */
import { planAdaptive, type AdaptivePlan, type AdaptiveRound, type AdaptiveRule } from '../core/adaptive-rule';
import { normalizeAnswer } from '../clustering/normalize';
import { adaptiveRuleOf } from '../model/run-spec';
import type { ReportSettings } from '../model/report';

/** The key the rule compares a sample's answer by. */
export function answerKey(answer: string | null | undefined): string {
  return normalizeAnswer(answer ?? '');
}

/** Where a question stands: finished (its samples are slots 0..samples−1), or the slots its current round still lacks. */
export type AdaptiveState =
  | { done: true; selection: number; samples: number; plan: AdaptivePlan }
  | { done: false; missing: number[]; plan: AdaptivePlan };

/**
 * The rule replayed over a question's slots (`keys[i]`: slot i's answer key, undefined when slot i
 * is not stored; slots past the rule's maximum are ignored).
 */
export function adaptiveState(keys: readonly (string | undefined)[], rule: AdaptiveRule): AdaptiveState {
  let prefix = 0;
  while (prefix < keys.length && prefix < rule.maxSamples && keys[prefix] !== undefined) prefix++;
  const plan = planAdaptive(keys.slice(0, prefix) as string[], rule);
  if (plan.next.phase === 'done') return { done: true, selection: plan.selection, samples: plan.selection + plan.heldOut, plan };
  const missing: number[] = [];
  // Slot `prefix` is the first one not stored; the round's later slots may be (a resumed run).
  for (let i = prefix; i < prefix + plan.next.draw; i++) if (keys[i] === undefined) missing.push(i);
  return { done: false, missing, plan };
}

/**
 * A finished question's rounds, replayed from its answers (in slot order) and the rule a report
 * records (`settings.adaptive`, with `settings.samples` the maximum): the report does not store
 * them. Undefined when the report's run was not adaptive or the answers do not finish the rule.
 */
export function adaptiveRoundsOf(answers: readonly string[], settings: Pick<ReportSettings, 'samples' | 'adaptive'>): AdaptiveRound[] | undefined {
  const rule = adaptiveRuleOf({ n: settings.samples, adaptive: settings.adaptive });
  if (!rule) return undefined;
  const state = adaptiveState(answers.map(answerKey), rule);
  return state.done ? state.plan.rounds : undefined;
}

/**
 * Why a row's recorded selection block and sample count are not what `rule` gives on its answers
 * (in slot order), in words; undefined when they are. A report records the rule so its rounds can
 * be replayed (adaptiveRoundsOf): a rule that does not reproduce a row's selection_samples would
 * replay rounds the run never drew, so `semece score --adaptive` checks every row with this.
 */
export function adaptiveRowMismatch(answers: readonly string[], selectionSamples: number | undefined, rule: AdaptiveRule): string | undefined {
  if (selectionSamples === undefined) return 'it has no selection_samples: it was not sampled adaptively';
  const n = answers.length;
  if (n > rule.maxSamples) return `it has ${n} samples, more than the maximum ${rule.maxSamples}`;
  const state = adaptiveState(answers.map(answerKey), rule);
  if (!state.done) {
    const { next } = state.plan;
    const more = next.phase === 'done' ? 0 : next.draw;
    return `the rule replayed over its ${n} answer${n === 1 ? '' : 's'} is not finished: it would draw ${more} more ${next.phase === 'selection' ? 'selection' : 'held-out'} sample${more === 1 ? '' : 's'}`;
  }
  if (state.selection !== selectionSamples || state.samples !== n) {
    return `the rule replayed over its answers gives a selection block of ${state.selection} and ${state.samples} samples, but the row has selection_samples ${selectionSamples} and ${n} samples`;
  }
  return undefined;
}
