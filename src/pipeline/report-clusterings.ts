/**
 * A report's own clustering of one model as rows (each question's class index per sample and
 * its answers), and the same packed as the page sends it to the import worker: a few typed arrays
 * and one string of answers instead of half a million small objects. Apart from
 * report-agreement.ts so the page's side carries no JSONL parser.
 */
import type { ModelReport } from '../model/report';

export type ClusteringRow = { id: string; n_clusters: number; cluster_assignments: number[]; error?: string };

export interface OwnClusterings {
  rows: (ClusteringRow & { answers: string[] })[];
  skipped: { id: string; reason: string }[];
}

/** The report's clustering of one model as rows; questions that cannot take part, with why. */
export function reportClusterings(model: Pick<ModelReport, 'questions'>): OwnClusterings {
  const rows: (ClusteringRow & { answers: string[] })[] = [];
  const skipped: { id: string; reason: string }[] = [];
  for (const q of model.questions) {
    if (!q.samples?.length) {
      skipped.push({ id: q.id, reason: 'this report does not keep the samples of this question' });
      continue;
    }
    const assignments = q.samples.map((s) => s.cls);
    rows.push({ id: q.id, n_clusters: Math.max(q.classes?.length ?? 0, ...assignments.map((c) => c + 1)), cluster_assignments: assignments, answers: q.samples.map((s) => s.answer) });
  }
  return { rows, skipped };
}

/** The report's clustering as the page sends it to a worker: flat arrays, one string of all answers. */
export interface PackedClusterings {
  ids: string[];
  nClusters: Int32Array;
  /** Samples of each question, in order. */
  counts: Int32Array;
  assignments: Int32Array;
  /** Every answer, one after the other; `answerLengths` cuts them apart. */
  answers: string;
  answerLengths: Int32Array;
  skipped: { id: string; reason: string }[];
}

/**
 * reportClusterings(model), packed, in one pass over the samples with no row objects in between
 * (unpackClusterings gives reportClusterings back): it runs on the page's thread, 10,000
 * questions × 50 samples in about 20–50 ms.
 */
export function packReportClusterings(model: Pick<ModelReport, 'questions'>): PackedClusterings {
  let samples = 0;
  let kept = 0;
  for (const q of model.questions) {
    if (q.samples?.length) {
      samples += q.samples.length;
      kept++;
    }
  }
  const ids: string[] = [];
  const counts = new Int32Array(kept);
  const nClusters = new Int32Array(kept);
  const assignments = new Int32Array(samples);
  const answerLengths = new Int32Array(samples);
  const answers: string[] = new Array(samples);
  const skipped: OwnClusterings['skipped'] = [];
  let row = 0;
  let at = 0;
  for (const q of model.questions) {
    const list = q.samples;
    if (!list?.length) {
      skipped.push({ id: q.id, reason: 'this report does not keep the samples of this question' });
      continue;
    }
    let classes = q.classes?.length ?? 0;
    for (let j = 0; j < list.length; j++, at++) {
      const s = list[j];
      assignments[at] = s.cls;
      if (s.cls + 1 > classes) classes = s.cls + 1;
      answers[at] = s.answer;
      answerLengths[at] = s.answer.length;
    }
    ids.push(q.id);
    counts[row] = list.length;
    nClusters[row] = classes;
    row++;
  }
  return { ids, nClusters, counts, assignments, answers: answers.join(''), answerLengths, skipped };
}

export function unpackClusterings(p: PackedClusterings): OwnClusterings {
  const rows: OwnClusterings['rows'] = [];
  let sample = 0;
  let char = 0;
  p.ids.forEach((id, i) => {
    const answers: string[] = [];
    const cluster_assignments: number[] = [];
    for (let j = 0; j < p.counts[i]; j++, sample++) {
      cluster_assignments.push(p.assignments[sample]);
      answers.push(p.answers.slice(char, char + p.answerLengths[sample]));
      char += p.answerLengths[sample];
    }
    rows.push({ id, n_clusters: p.nClusters[i], cluster_assignments, answers });
  });
  return { rows, skipped: p.skipped };
}
