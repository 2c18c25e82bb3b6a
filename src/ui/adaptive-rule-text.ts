/**
 * An adaptive run's stopping rule in one line (core/adaptive-rule.ts), as the wizard's review and
 * the report's "Samples spent" view say it: the same words wherever the rule is shown.
 */
import type { AdaptiveSettings } from '../model/run-spec';

/** "at most 50 samples per question: the selection block is drawn in a first round of 5 …". */
export function describeAdaptive(s: AdaptiveSettings, max: number): string {
  const agree = s.agreement >= 1 ? 'every selection sample agrees' : `its top answer holds ${Math.round(s.agreement * 100)}% of the selection`;
  // Rules recorded before the unsettled block had its own size held out every remaining sample.
  const unsettled = s.unsettledHeldOut === undefined ? 'every remaining sample up to the maximum' : `up to ${s.unsettledHeldOut} held-out samples, within the maximum`;
  // A selection block no larger than the first round has no later rounds to speak of.
  const selection = s.maxSelection <= s.firstRound ? `the selection block is the first ${s.maxSelection} samples` : `the selection block is drawn in a first round of ${s.firstRound} and later rounds of ${s.roundSize}, up to ${s.maxSelection}`;
  return `at most ${max} samples per question: ${selection}; a question is settled when ${agree} and then draws ${s.settledHeldOut} held-out samples; an unsettled one draws ${unsettled}`;}
