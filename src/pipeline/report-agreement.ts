/**
 * Agreement between a report's own clustering and a second clustering of the same samples
 * (e.g. judge vs embeddings), read from the authors' clustered JSONL file: the
 * clustering module's agreementByQuestion over the report's per-sample class indices (ReportQuestion
 * samples[].cls) and the file's cluster_assignments, joined on question id.
 *
 * "The same samples" is checked, not assumed: a question whose extracted answers differ between
 * the report and the file (another sampling, or another order) is skipped with the first
 * difference named, as is every question the report cannot compare (no samples kept, excluded).
 *
 * The page sends its clustering to the import worker packed (report-clusterings.ts), where the
 * file is parsed and compared off the main thread.
 */
import { agreementByQuestion, type RowsAgreement } from '../clustering/agreement-rows';
import { parseClusteredJsonl } from '../formats/authors-rows';
import type { JsonlText } from '../formats/jsonl-rows';
import type { ExcludedQuestion, ModelReport } from '../model/report';
import type { Result } from '../model/rows';
import { reportClusterings, type ClusteringRow, type OwnClusterings } from './report-clusterings';

export interface ReportAgreement extends RowsAgreement {
  file: string;
  /** Rows of the file (first per id), for "x of y questions compared". */
  fileQuestions: number;
}

/** Where two lists of a question's answers first differ, said for the skipped list; null when they agree. */
function firstDifference(a: readonly string[], b: readonly (string | null)[]): string | null {
  if (a.length !== b.length) return null; // counted by agreementByQuestion with its own reason
  for (let i = 0; i < a.length; i++) {
    const other = b[i] ?? '';
    if (a[i] !== other) return `not the same samples: sample ${i + 1} is ${JSON.stringify(a[i])} in this report and ${JSON.stringify(other)} in the file`;
  }
  return null;
}

/** Agreement of the report's clustering of `model` with a clustered JSONL file given as text. */
export function agreementWithFile(model: Pick<ModelReport, 'questions' | 'excludedQuestions'>, text: JsonlText, file: string): Result<ReportAgreement> {
  return agreementOfClusterings(reportClusterings(model), model.excludedQuestions, text, file);
}

/** The same from the report's clustering already taken out of it (reportClusterings, or unpacked in a worker). */
export function agreementOfClusterings(own: OwnClusterings, excludedQuestions: readonly ExcludedQuestion[], text: JsonlText, file: string): Result<ReportAgreement> {
  const parsed = parseClusteredJsonl(text, file, { dropReplies: true });
  if (!parsed.ok) return parsed;
  const answersOf = new Map(own.rows.map((r) => [r.id, r.answers]));
  const mismatched = new Map<string, string>();
  const theirs: ClusteringRow[] = parsed.value.rows.map(({ row: entry }) => {
    if (!entry.ok) return { id: entry.id, n_clusters: 0, cluster_assignments: [], error: entry.reason };
    const mine = answersOf.get(entry.id);
    const diff = mine ? firstDifference(mine, entry.row.answer_extracted) : null;
    if (diff) mismatched.set(entry.id, diff);
    return { id: entry.id, n_clusters: entry.row.n_clusters, cluster_assignments: entry.row.cluster_assignments };
  });
  const result = agreementByQuestion(
    own.rows.filter((r) => !mismatched.has(r.id)),
    theirs.filter((r) => !mismatched.has(r.id)),
  );
  const excluded = new Map(excludedQuestions.map((x) => [x.id, x.reason]));
  const noSamples = new Set(own.skipped.map((x) => x.id));
  const reasonOf = (id: string, reason: string): string => {
    if (reason === 'not in the first clustering') {
      if (excluded.has(id)) return `excluded from this report (${excluded.get(id)})`;
      if (noSamples.has(id)) return 'this report does not keep the samples of this question';
      return 'not in this report';
    }
    return reason.replace('not in the second clustering', `not in ${file}`).replace('in the first clustering', 'in this report').replace('in the second clustering', `in ${file}`);
  };
  const listed = new Set(result.skipped.map((x) => x.id));
  const skipped = [
    ...result.skipped.map((x) => ({ id: x.id, reason: reasonOf(x.id, x.reason) })),
    ...[...mismatched].map(([id, reason]) => ({ id, reason })),
    // Questions of the report without samples that the file does not hold either.
    ...own.skipped.filter((x) => !listed.has(x.id)),
  ];
  if (result.questions.length === 0) {
    const why = skipped.slice(0, 3).map((x) => `${x.id}: ${x.reason}`).join('; ');
    return { ok: false, error: { kind: 'bad-input', message: `${file}: no question of the file could be compared with this report's clustering${why ? ` (${why}${skipped.length > 3 ? '; …' : ''})` : ''}.`, where: file } };
  }
  return { ok: true, value: { ...result, skipped, file, fileQuestions: parsed.value.rows.length } };
}

