/**
 * Sampled rows → the authors' clustered rows, and the check of a sampled row read from JSONL.
 *
 * Failure marker: the authors' format has no field for a failed clustering, so a failed question
 * is written with `n_clusters: 0`, empty cluster arrays, `modal_cluster: -1`,
 * `modal_cluster_label: ""` and an `error` field holding the reason. The score reader
 * (src/formats/authors-rows.ts) excludes and counts such rows.
 */
import type { ClusteredRow, SampledRow, StageError } from '../model/rows';
import type { Usage } from '../model/provider';
import { FieldError, confidences, id, int, selectionSamples, str, strings, type Obj } from '../formats/authors-fields';
import { classesToRowFields } from './row-fields';
import type { Clusterer } from './clusterer';

/** Extra fields of a row travel through untouched (aliases, options, category …). */
export type SampledRowIn = SampledRow & { options?: string[]; [extra: string]: unknown };
export type ClusteredRowOut = (ClusteredRow & { error?: string; [extra: string]: unknown });

export async function clusterRow(row: SampledRowIn, clusterer: Clusterer, signal?: AbortSignal): Promise<{ row: ClusteredRowOut; ok: boolean; usage?: Usage; calls?: number; error?: StageError }> {
  // An earlier clustering's error and similarity are not this one's.
  const { error: _stale, answer_similarity: _earlier, ...rest } = row as SampledRowIn & { error?: unknown };
  const outcome = await clusterer.cluster(row.question, row.answer_extracted, signal, { options: row.options });
  if (outcome.ok) {
    const similarity = outcome.similarity ? { answer_similarity: outcome.similarity } : {};
    return { row: { ...rest, ...classesToRowFields(outcome.value, row.answer_extracted.length, row.selection_samples), ...similarity }, ok: true, usage: outcome.usage, calls: outcome.calls };
  }
  const failed: ClusteredRowOut = {
    ...rest,
    n_clusters: 0,
    cluster_labels: [],
    cluster_assignments: [],
    cluster_sizes: [],
    modal_cluster: -1,
    modal_cluster_label: '',
    error: `clustering failed (${outcome.error.kind}): ${outcome.error.message}`,
  };
  return { row: failed, ok: false, usage: outcome.usage, calls: outcome.calls, error: outcome.error };
}

/**
 * A sampled row: the fields clustering needs are checked, and the stated confidences by the
 * grade and score readers' own rule (authors-fields.ts), so a row `cluster` passes is not refused
 * after it; everything else passes through.
 */
export function readSampledRow(obj: Obj): SampledRowIn {
  const n = int(obj, 'n_samples', 1);
  const answers = strings(obj, 'answer_extracted', n, 'n_samples', { nullable: true }).map((a) => a ?? '');
  confidences(obj, 'confidence_verbalized', n, 'n_samples');
  // An adaptive row's selection block is checked here too, so a row `cluster` passes is scored.
  if (obj.selection_samples !== undefined) selectionSamples(obj, n);
  const options = obj.options;
  if (options !== undefined && (!Array.isArray(options) || options.some((o) => typeof o !== 'string'))) throw new FieldError('"options" must be an array of strings');
  return { ...(obj as object), id: id(obj), question: str(obj, 'question'), gold_answer: str(obj, 'gold_answer'), model: str(obj, 'model'), n_samples: n, answer_extracted: answers } as SampledRowIn;
}
