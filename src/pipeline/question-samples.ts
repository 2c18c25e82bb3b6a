/**
 * One question's samples, read back from this browser's caches for a report that left them out
 * (a run over SAMPLE_DETAIL_LIMIT samples, report-detail.ts): the replies from the sample cache
 * under the keys the run sampled them with, and their classes from the clustering cache under the
 * key the run clustered them with. Exact match is not cached (stage-cache-keys.ts) and is a
 * deterministic function of the answers, so it is computed again. Nothing is requested.
 */
import { clusterExact } from '../clustering/exact';
import { classesToRowFields } from '../clustering/row-fields';
import { firstRowPerId, type Sample } from '../model/rows';
import { adaptiveRuleOf, modelLabel, type RunSpec } from '../model/run-spec';
import { adaptiveState, answerKey } from './adaptive-slots';
import { readQuestions, type SampleCache } from '../model/sample-cache';
import type { StageCache } from '../model/stage-cache';
import { DEFAULT_GENERATION_PROMPT } from './prompts';
import { questionKeyBase } from './sampling';
import { samplingSettingsOf } from './sample-keys';
import { cachesClustering, clusteringKey } from './stage-cache-keys';

export interface CachedSample {
  raw: string;
  answer: string;
  confidence: number | null;
}

export type QuestionSamples =
  | {
      found: true;
      samples: CachedSample[];
      /**
       * The classes as the run made them (labels, and each sample's class index), or null when the
       * clustering is no longer cached: the samples are then shown without their classes.
       */
      classes: { labels: string[]; assignments: number[] } | null;
    }
  | { found: false; why: string };

export async function questionSamples(
  spec: RunSpec,
  model: string,
  questionId: string,
  caches: { samples: SampleCache; clusterings: Pick<StageCache, 'getClusterings'> },
): Promise<QuestionSamples> {
  // A multiple-choice run samples through its own prompts and keys (multiple-choice/reply-cache.ts).
  if (spec.mc) return { found: false, why: "a multiple-choice run's samples are not read back into its report" };
  const m = spec.models.find((x) => modelLabel(x) === model);
  if (!m) return { found: false, why: `the run that made this report has no model "${model}"` };
  const question = firstRowPerId(spec.dataset.questions).find((q) => q.id === questionId);
  if (!question) return { found: false, why: `the run that made this report has no question "${questionId}"` };
  // The same key base the sample stage read and wrote (sample-stage.ts), so the same records.
  const base = await questionKeyBase({ config: m }, samplingSettingsOf(spec.sampling), spec.sampling.prompt ?? DEFAULT_GENERATION_PROMPT, question);
  const [all] = await readQuestions(caches.samples, [base], spec.sampling.n);
  // An adaptive run's question holds the slots its rule used (replayed from the stored answers), not every slot up to the maximum.
  const rule = adaptiveRuleOf(spec.sampling);
  const state = rule ? adaptiveState(all.map((s) => (s === undefined ? undefined : answerKey(s.answer))), rule) : undefined;
  if (state && !state.done) return { found: false, why: "its samples in this browser's sample cache do not finish its rounds" };
  const n = state?.done ? state.samples : spec.sampling.n;
  const stored = all.slice(0, n);
  const samples = stored.filter((s): s is Sample => s !== undefined);
  if (samples.length < n) {
    return { found: false, why: samples.length === 0 ? "its samples are no longer in this browser's sample cache" : `only ${samples.length} of its ${n} samples are still in this browser's sample cache` };
  }
  const answers = samples.map((s) => s.answer);
  let classes = null;
  if (spec.clustering.method === 'exact') classes = clusterExact(answers, question.options);
  else if (cachesClustering(spec.clustering)) {
    const [hit] = await caches.clusterings.getClusterings([await clusteringKey(question, answers, spec.clustering)]);
    if (hit?.result.ok) classes = hit.result.classes;
  }
  const fields = classes ? classesToRowFields(classes, n) : null;
  return {
    found: true,
    samples: samples.map(({ raw, answer, confidence }) => ({ raw, answer, confidence })),
    classes: fields ? { labels: fields.cluster_labels, assignments: fields.cluster_assignments } : null,
  };
}
