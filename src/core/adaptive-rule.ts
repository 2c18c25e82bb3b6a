/**
 * The stopping rule of adaptive sampling (issue 27; design in docs/STATISTICS.md, "Adaptive
 * sampling"). Each question is sampled in rounds. The first rounds are the SELECTION block; after
 * each selection round the rule looks at the selection samples' answer keys only and decides
 * whether to draw another selection round. When it stops selecting, it fixes the number m of
 * HELD-OUT samples, again from the selection samples only; those m are then drawn, and the
 * question is done.
 *
 * Why this shape: the selection block's size and m are functions of the selection samples alone,
 * and the held-out samples are fresh draws, so given the selection the held-out samples are m
 * independent draws from the question's answer distribution. The held-out share of the
 * selection's modal class (adaptive Sem2, adaptive-sem2.ts) is then unbiased for that class's
 * probability, whatever was decided. Stopping on the held-out samples themselves would bias it.
 *
 * Savings come from questions whose selection agrees (easy ones: confidence near 1, where a
 * shorter held-out block suffices). Questions whose selection is split keep every remaining sample as
 * held-out, because a small held-out block inflates the measured ECE (noisy confidences spill
 * across bins); docs/STATISTICS.md has the measured bias.
 *
 * Pure and deterministic: a resumed run replays the same decisions from its cached samples.
 */

export interface AdaptiveRule {
  /** The run's `samples`: never more than this per question. */
  maxSamples: number;
  /** Selection samples drawn first. */
  firstRound: number;
  /** Size of each later selection round. */
  roundSize: number;
  /**
   * The selection block never grows beyond this many samples (and always leaves one held-out
   * slot); a selection that reaches it still agreeing is SETTLED.
   */
  maxSelection: number;
  /**
   * Selection rounds go on while the selection's modal answer holds at least this share of the
   * selection samples (1 = every selection sample agrees); a round that breaks it ends the
   * selection UNSETTLED.
   */
  agreement: number;
  /** Held-out samples drawn for a settled selection. */
  settledHeldOut: number;
  /**
   * Held-out samples drawn for an unsettled selection; absent (the default) = every slot left
   * under the maximum, since a split question's confidence needs all the precision it can get.
   */
  unsettledHeldOut?: number;
}

/**
 * The rule's settings apart from the run's maximum, tuned with the simulator
 * (bench/adaptive.bench.ts; docs/STATISTICS.md): a selection block of 5; when all 5 agree the
 * question draws 20 held-out samples (25 in all), otherwise every remaining slot. Smaller
 * held-out blocks or larger selection blocks saved more samples but biased Sem2-ECE above fixed
 * n = 50 on some families (a larger selection lets more questions with π ≈ 0.9 pass as settled).
 */
export const DEFAULT_ADAPTIVE_RULE: Omit<AdaptiveRule, 'maxSamples'> = {
  firstRound: 5,
  roundSize: 5,
  maxSelection: 5,
  agreement: 1,
  settledHeldOut: 20,
};

export type AdaptiveStep =
  | { phase: 'selection'; draw: number }
  | { phase: 'held-out'; draw: number }
  | { phase: 'done' };

export interface AdaptiveRound {
  phase: 'selection' | 'held-out';
  /** First slot of the round. */
  start: number;
  /** Planned size of the round (the last round may not be fully drawn yet; see `next`). */
  size: number;
}

export interface AdaptivePlan {
  /** Slots 0..selection−1 are the selection block (so far). */
  selection: number;
  /** Held-out samples drawn so far (slots selection..selection+heldOut−1). */
  heldOut: number;
  /** Every round started so far, in order; the last one may still be partly undrawn. */
  rounds: AdaptiveRound[];
  /** What to draw next ('done' when finished). */
  next: AdaptiveStep;
}

function isPositiveInteger(x: number): boolean {
  return Number.isInteger(x) && x >= 1;
}

/** What is wrong with the rule's settings, in words; [] when they are fine. */
export function adaptiveRuleProblems(rule: AdaptiveRule): string[] {
  const problems: string[] = [];
  if (!Number.isInteger(rule.maxSamples) || rule.maxSamples < 2) {
    problems.push(`the maximum samples per question must be an integer of at least 2 (one selection and one held-out sample), got ${rule.maxSamples}`);
  }
  if (!isPositiveInteger(rule.firstRound)) problems.push(`the first round must be a whole number of samples, at least 1, got ${rule.firstRound}`);
  else if (Number.isInteger(rule.maxSamples) && rule.firstRound >= rule.maxSamples) {
    problems.push(`the first round (${rule.firstRound}) must be smaller than the maximum samples per question (${rule.maxSamples}), so that some samples are left for the held-out block`);
  }
  if (!isPositiveInteger(rule.roundSize)) problems.push(`the round size must be a whole number of samples, at least 1, got ${rule.roundSize}`);
  if (!isPositiveInteger(rule.maxSelection)) problems.push(`the largest selection block must be a whole number of samples, at least 1, got ${rule.maxSelection}`);
  else if (isPositiveInteger(rule.firstRound) && rule.maxSelection < rule.firstRound) {
    problems.push(`the largest selection block (${rule.maxSelection}) must be at least the first round (${rule.firstRound})`);
  }
  if (!(rule.agreement > 0 && rule.agreement <= 1)) problems.push(`the agreement share must be in (0, 1], got ${rule.agreement}`);
  if (!isPositiveInteger(rule.settledHeldOut)) problems.push(`the held-out block of a settled question must be a whole number of samples, at least 1, got ${rule.settledHeldOut}`);
  if (rule.unsettledHeldOut !== undefined && !isPositiveInteger(rule.unsettledHeldOut)) problems.push(`the held-out block of an unsettled question must be a whole number of samples, at least 1, got ${rule.unsettledHeldOut}`);
  return problems;
}

/** Share of the modal key among keys[0..s−1]. */
function modalShare(keys: readonly string[], s: number): number {
  const counts = new Map<string, number>();
  let best = 0;
  for (let i = 0; i < s; i++) {
    const c = (counts.get(keys[i]) ?? 0) + 1;
    counts.set(keys[i], c);
    if (c > best) best = c;
  }
  return best / s;
}

/**
 * The held-out block size m for a finished selection block of s samples. A function of the
 * selection samples only (this is what keeps the held-out share unbiased).
 */
export function heldOutSize(keys: readonly string[], s: number, rule: AdaptiveRule): number {
  const room = rule.maxSamples - s;
  if (modalShare(keys, s) >= rule.agreement) return Math.min(rule.settledHeldOut, room);
  return Math.min(rule.unsettledHeldOut ?? room, room);
}

/** The largest selection block this rule allows under its maximum (always ≥ 1, leaves a held-out slot). */
function selectionCap(rule: AdaptiveRule): number {
  return Math.max(1, Math.min(rule.maxSelection, rule.maxSamples - 1));
}

/**
 * Replays the rule over the answer keys held so far, in sampling (slot) order. Pure and
 * deterministic, so a resumed run replays the same decisions from the cached samples. Keys
 * beyond what the plan uses (e.g. cached by an earlier fixed-n run) are ignored.
 * Throws a RangeError when the rule has problems (adaptiveRuleProblems).
 */
export function planAdaptive(answerKeys: readonly string[], rule: AdaptiveRule): AdaptivePlan {
  const problems = adaptiveRuleProblems(rule);
  if (problems.length) throw new RangeError(`adaptive rule: ${problems.join('; ')}`);
  const have = answerKeys.length;
  const cap = selectionCap(rule);
  const rounds: AdaptiveRound[] = [];
  // Selection rounds: the first round, then rounds of roundSize, while the selection agrees and
  // is below the cap. A round that breaks the agreement ends the selection (unsettled).
  let planned = Math.min(rule.firstRound, cap);
  rounds.push({ phase: 'selection', start: 0, size: planned });
  for (;;) {
    if (have < planned) {
      return { selection: have, heldOut: 0, rounds, next: { phase: 'selection', draw: planned - have } };
    }
    if (modalShare(answerKeys, planned) < rule.agreement || planned >= cap) break;
    const size = Math.min(rule.roundSize, cap - planned);
    rounds.push({ phase: 'selection', start: planned, size });
    planned += size;
  }
  const selection = planned;
  const m = heldOutSize(answerKeys, selection, rule);
  rounds.push({ phase: 'held-out', start: selection, size: m });
  const heldOut = Math.min(m, have - selection);
  const next: AdaptiveStep = heldOut < m ? { phase: 'held-out', draw: m - heldOut } : { phase: 'done' };
  return { selection, heldOut, rounds, next };
}

/** The full rule for a run: the defaults (or the given settings) with the run's maximum. */
export function adaptiveRule(maxSamples: number, settings: Partial<Omit<AdaptiveRule, 'maxSamples'>> = {}): AdaptiveRule {
  return { ...DEFAULT_ADAPTIVE_RULE, ...settings, maxSamples };
}
