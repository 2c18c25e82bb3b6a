/** The settings a report records about the run that produced it: effective values, no secrets. */
import type { ReportSettings } from '../model/report';
import { modelLabel, scoringOf, type RunSpec } from '../model/run-spec';

export function reportSettings(spec: RunSpec): ReportSettings {
  const c = spec.clustering;
  const g = spec.grading;
  return {
    samples: spec.sampling.n,
    temperature: spec.sampling.temperature,
    topP: spec.sampling.topP,
    maxTokens: spec.sampling.maxTokens,
    prompt: spec.sampling.prompt,
    clustering: {
      method: c.method,
      detail:
        c.method === 'judge'
          ? `judge ${modelLabel(c.judge)}`
          : c.method === 'embedding'
            ? `${c.model}, cosine threshold ${c.threshold}`
            : c.method === 'entailment'
              ? `${c.model}, mutual entailment with each class's first member, the question as context`
              : 'normalized exact match',
    },
    grading: { method: g.method, detail: g.method === 'judge' ? `judge ${modelLabel(g.judge)}` : 'normalized match against the answer and its aliases' },
    // The run's scoring settings; the score stage scores with these and records what it used.
    ...scoringOf(spec),
  };
}
