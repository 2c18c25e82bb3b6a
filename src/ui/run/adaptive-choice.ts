/**
 * The wizard's "Adaptive" sampling choice (issue 27): the stopping rule's settings as the wizard
 * edits them, their labels, their defaults fitted to what each model returns per request, what is
 * wrong with them in words (core/adaptive-rule.ts's adaptiveRuleProblems, the run's n being the
 * maximum). Plain data, tested apart from the components.
 */
import { adaptiveRule, adaptiveRuleProblems, DEFAULT_ADAPTIVE_RULE } from '../../core/adaptive-rule';
import type { AdaptiveSettings } from '../../model/run-spec';
import { capabilitiesFor } from '../../providers/capabilities';


/** Each setting in the words of the wizard (a setting the rule adds later shows its own name until it has words here). */
export const ADAPTIVE_LABELS: Partial<Record<keyof AdaptiveSettings, string>> = {
  firstRound: 'First round (samples)',
  roundSize: 'Later rounds (samples)',
  maxSelection: 'Largest selection block',
  agreement: 'Settled when the top answer holds (share)',
  settledHeldOut: 'Held-out samples, settled question',
  unsettledHeldOut: 'Held-out samples, unsettled question',
} as Partial<Record<keyof AdaptiveSettings, string>>;

/** The rule's settings the wizard shows: those with a default, then the optional ones it has words for. */
export const ADAPTIVE_FIELDS = [...new Set([...Object.keys(DEFAULT_ADAPTIVE_RULE), ...Object.keys(ADAPTIVE_LABELS)])] as (keyof AdaptiveSettings)[];

/** A setting without a default: absent means the rule's own behaviour (an unsettled question's held-out block is the rest). */
export const isOptionalSetting = (k: keyof AdaptiveSettings): boolean => !(k in DEFAULT_ADAPTIVE_RULE);

export const adaptiveLabel = (k: keyof AdaptiveSettings): string => ADAPTIVE_LABELS[k] ?? String(k);

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
  return { ...d, firstRound: fitRound(d.firstRound, per), roundSize: fitRound(d.roundSize, per) };
}

/** How many requests one round of `size` samples takes at `perRequest` samples per request. */
export const requestsPerRound = (size: number, perRequest: number): number => Math.ceil(size / Math.max(1, perRequest));

/** What is wrong with the settings for a run of at most `n` samples per question, one sentence each. */
export function adaptiveProblems(settings: AdaptiveSettings, n: number): string[] {
  // An emptied number field reads as null or NaN: a setting with a default is then named in the
  // rule's own words; an optional one is absent.
  const clean = Object.fromEntries(
    ADAPTIVE_FIELDS.flatMap((k) => {
      const v = settings[k];
      if (isOptionalSetting(k)) return v === undefined || v === null || Number.isNaN(v) ? [] : [[k, Number(v)]];
      return [[k, Number(v ?? NaN)]];
    }),
  ) as unknown as AdaptiveSettings;
  return adaptiveRuleProblems(adaptiveRule(n, clean)).map((p) => `Adaptive sampling: ${p}.`);
}

/**
 * Only the rule's settings of an object that has them (a stored spec may carry more): one with a
 * default that it lacks (a rule recorded before the setting existed) at its default, an optional
 * one only where set.
 */
export function adaptiveSettingsOf(s: Partial<AdaptiveSettings>): AdaptiveSettings {
  return Object.fromEntries(
    ADAPTIVE_FIELDS.flatMap((k) => {
      const v = s[k] ?? (DEFAULT_ADAPTIVE_RULE as Partial<AdaptiveSettings>)[k];
      return v === undefined || v === null ? [] : [[k, v]];
    }),
  ) as unknown as AdaptiveSettings;
}

/** Whether the settings are the rule's defaults. */
export function isDefaultAdaptive(s: AdaptiveSettings): boolean {
  return ADAPTIVE_FIELDS.every((k) => s[k] === (DEFAULT_ADAPTIVE_RULE as Partial<AdaptiveSettings>)[k]);
}
