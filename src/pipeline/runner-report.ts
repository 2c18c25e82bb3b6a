/** The settings a report records about the run that produced it: effective values, no secrets. */
import type { ReportSettings } from '../model/report';
import { modelLabel, scoringOf, type ClusteringSpec, type GradingSpec, type ModelSpec, type RunSpec } from '../model/run-spec';

/** What a report says of a clustering: its method and, in words, its model or rule (also written into the CLI's rows). */
export function clusteringSetting(c: Pick<ClusteringSpec, 'method'> & Partial<{ judge: Pick<ModelSpec, 'preset' | 'model'>; model: string; threshold: number }>): ReportSettings['clustering'] {
  return {
    method: c.method,
    detail:
      c.method === 'judge' && c.judge
        ? `judge ${modelLabel(c.judge)}`
        : c.method === 'embedding'
          ? `${c.model}, cosine threshold ${c.threshold}`
          : c.method === 'entailment'
            ? `${c.model}, mutual entailment with each class's first member, the question as context`
            : 'normalized exact match',
  };
}

export function gradingSetting(g: Pick<GradingSpec, 'method'> & { judge?: Pick<ModelSpec, 'preset' | 'model'> }): ReportSettings['grading'] {
  return { method: g.method, detail: g.method === 'judge' && g.judge ? `judge ${modelLabel(g.judge)}` : 'normalized match against the answer and its aliases' };
}

export function reportSettings(spec: RunSpec): ReportSettings {
  const c = spec.clustering;
  const g = spec.grading;
  return {
    samples: spec.sampling.n,
    temperature: spec.sampling.temperature,
    topP: spec.sampling.topP,
    maxTokens: spec.sampling.maxTokens,
    prompt: spec.sampling.prompt,
    clustering: clusteringSetting(c),
    grading: gradingSetting(g),
    // The run's scoring settings; the score stage scores with these and records what it used.
    ...scoringOf(spec),
  };
}
