/**
 * Agreement between two clusterings of one run, question by question (e.g. judge vs embeddings
 * on the same samples), joined on id. Questions that cannot be compared — missing on one side, a
 * failed clustering, different sample counts — are listed with the reason, not silently dropped.
 */
import { firstRowPerId, type ClusteredRow } from '../model/rows';
import { clusteringAgreement, summarizeAgreement, type AgreementSummary, type ClusteringAgreement } from './agreement';

type Row = Pick<ClusteredRow, 'id' | 'n_clusters' | 'cluster_assignments'> & { error?: string };

export interface RowsAgreement {
  questions: (ClusteringAgreement & { id: string })[];
  skipped: { id: string; reason: string }[];
  summary: AgreementSummary;
}

const failed = (r: Row) => Boolean(r.error) || !(r.n_clusters > 0);

export function agreementByQuestion(a: Row[], b: Row[]): RowsAgreement {
  const byId = new Map(firstRowPerId(b).map((r) => [r.id, r]));
  const questions: RowsAgreement['questions'] = [];
  const skipped: RowsAgreement['skipped'] = [];
  const seen = new Set<string>();
  for (const ra of firstRowPerId(a)) {
    seen.add(ra.id);
    const rb = byId.get(ra.id);
    if (!rb) skipped.push({ id: ra.id, reason: 'not in the second clustering' });
    else if (failed(ra) || failed(rb)) skipped.push({ id: ra.id, reason: `clustering failed in the ${failed(ra) ? 'first' : 'second'} clustering` });
    else if (ra.cluster_assignments.length !== rb.cluster_assignments.length) {
      skipped.push({ id: ra.id, reason: `different numbers of samples (${ra.cluster_assignments.length} vs ${rb.cluster_assignments.length})` });
    } else questions.push({ id: ra.id, ...clusteringAgreement(ra.cluster_assignments, rb.cluster_assignments) });
  }
  for (const id of byId.keys()) if (!seen.has(id)) skipped.push({ id, reason: 'not in the first clustering' });
  return { questions, skipped, summary: summarizeAgreement(questions) };
}
