/** The settings a report records about the run that produced it: effective values, no secrets. */
import type { ReportSettings } from '../model/report';
import { clusteringDetail } from '../model/clustering-methods';
import { modelLabel, scoringOf, type ClusteringSpec, type GradingSpec, type ModelSpec, type RunSpec } from '../model/run-spec';

/** What a report says of a clustering: its method and, in words, its model or rule (its row's `detail`; also written into the CLI's rows). */
export function clusteringSetting(c: ClusteringSpec): ReportSettings['clustering'] {
  return { method: c.method, detail: clusteringDetail(c) };
}

export function gradingSetting(g: Pick<GradingSpec, 'method'> & { judge?: Pick<ModelSpec, 'preset' | 'model'> }): ReportSettings['grading'] {
  return { method: g.method, detail: g.method === 'judge' && g.judge ? `judge ${modelLabel(g.judge)}` : 'normalized match against the answer and its aliases' };
}

export function reportSettings(spec: RunSpec): ReportSettings {
  const c = spec.clustering;
  const g = spec.grading;
  return {
    samples: spec.sampling.n,
    // An adaptive run: `samples` is the maximum, and the rule is kept so each question's rounds replay.
    ...(spec.sampling.adaptive ? { adaptive: { ...spec.sampling.adaptive } } : {}),
    temperature: spec.sampling.temperature,
    topP: spec.sampling.topP,
    maxTokens: spec.sampling.maxTokens,
    prompt: spec.sampling.prompt,
    // Recorded only when asked, so a run without them keeps the settings (and their hash) it had.
    ...(spec.sampling.logprobs ? { logprobs: true } : {}),
    ...(spec.sampling.pTrue ? { pTrue: { ...spec.sampling.pTrue } } : {}),
    clustering: clusteringSetting(c),
    grading: gradingSetting(g),
    // The run's scoring settings; the score stage scores with these and records what it used.
    ...scoringOf(spec),
  };
}
