/**
 * The wizard's "Adaptive" sampling choice (issue 27): the stopping rule's settings as the wizard
 * edits them, their labels, their defaults fitted to what each model returns per request, what is
 * wrong with them in words (core/adaptive-rule.ts's adaptiveRuleProblems, the run's n being the
 * maximum), and the one line the review and the report say about them. Plain data, tested apart
 * from the components.
 */
import { adaptiveRule, adaptiveRuleProblems, DEFAULT_ADAPTIVE_RULE, type AdaptiveRule } from '../../core/adaptive-rule';
import { capabilitiesFor } from '../../providers/capabilities';

/** The rule's settings apart from the run's maximum: what a RunSpec's `adaptive` holds. */
export type AdaptiveSettings = Omit<AdaptiveRule, 'maxSamples'>;

/** Each setting in the words of the wizard, in the order the fields are shown. */
export const ADAPTIVE_LABELS: Record<keyof AdaptiveSettings, string> = {
  firstRound: 'First round (samples)',
  roundSize: 'Later rounds (samples)',
  maxSelection: 'Largest selection block',
  agreement: 'Settled when the top answer holds (share)',
  settledHeldOut: 'Held-out samples of a settled question',
};

export const ADAPTIVE_FIELDS = Object.keys(ADAPTIVE_LABELS) as (keyof AdaptiveSettings)[];

/** A fresh, editable copy of the rule's defaults. */
export function defaultAdaptive(): AdaptiveSettings {
  return { ...DEFAULT_ADAPTIVE_RULE };
}

/**
 * A round size fitted to a provider that returns `perRequest` samples per request: a round
 * larger than that is cut to a whole number of requests, so no request of a round is half used;
 * one sample per request (or a count not known) leaves it as it is, every sample being a request.
 */
export function fitRound(size: number, perRequest: number): number {
  if (!(perRequest > 1) || size <= perRequest) return size;
  return Math.floor(size / perRequest) * perRequest;
}

/**
 * The fewest samples per request among the run's models, where the capability table knows them
 * (a server probed at run time is left out); 1 when none is known.
 */
export function samplesPerRequest(models: readonly { preset: string; model: string }[]): number {
  const known = models.map((m) => capabilitiesFor(m.preset, m.model.trim())).filter((c) => !c.unknown).map((c) => c.maxN);
  return known.length > 0 ? Math.max(1, Math.min(...known)) : 1;
}

/** The defaults, with the rounds and blocks fitted to the models' samples per request. */
export function fittedAdaptive(models: readonly { preset: string; model: string }[]): AdaptiveSettings {
  const per = samplesPerRequest(models);
  const d = defaultAdaptive();
  return { ...d, firstRound: fitRound(d.firstRound, per), roundSize: fitRound(d.roundSize, per), settledHeldOut: fitRound(d.settledHeldOut, per) };
}

/** How many requests one round of `size` samples takes at `perRequest` samples per request. */
export const requestsPerRound = (size: number, perRequest: number): number => Math.ceil(size / Math.max(1, perRequest));

/** What is wrong with the settings for a run of at most `n` samples per question, one sentence each. */
export function adaptiveProblems(settings: AdaptiveSettings, n: number): string[] {
  // An emptied number field reads as null or NaN: say so in the rule's own words.
  const clean = Object.fromEntries(ADAPTIVE_FIELDS.map((k) => [k, Number(settings[k] ?? NaN)])) as unknown as AdaptiveSettings;
  return adaptiveRuleProblems(adaptiveRule(n, clean)).map((p) => `Adaptive sampling: ${p}.`);
}

/** Only the rule's settings of an object that has them (a stored spec may carry more). */
export function adaptiveSettingsOf(s: AdaptiveSettings): AdaptiveSettings {
  return Object.fromEntries(ADAPTIVE_FIELDS.map((k) => [k, s[k]])) as unknown as AdaptiveSettings;
}

/** Whether the settings are the rule's defaults. */
export function isDefaultAdaptive(s: AdaptiveSettings): boolean {
  return ADAPTIVE_FIELDS.every((k) => s[k] === DEFAULT_ADAPTIVE_RULE[k]);
}

/** The settings in one line, for the review and the report ("first round 5, then rounds of 5 …"). */
export function describeAdaptive(s: AdaptiveSettings, max: number): string {
  const agree = s.agreement >= 1 ? 'every selection sample agrees' : `the top answer holds ${Math.round(s.agreement * 100)}% of the selection`;
  return `at most ${max} samples per question: a first round of ${s.firstRound}, then rounds of ${s.roundSize} while the selection is unsettled (up to ${s.maxSelection}); settled when ${agree}, then ${s.settledHeldOut} held-out samples, else every remaining sample is held out`;
}
