/**
 * Open report's "Verify against a sample file": the report's numbers recomputed from a clustered
 * and a graded JSONL file chosen in the browser (pipeline/report-verify.ts, the same check as
 * `semece verify`). Loaded only when asked, so the page that opens a report does not carry the scorer.
 */
import { readAuthorsRows } from '../../formats/authors-rows';
import type { ReportDocument } from '../../model/report';
import { differenceLines, overrideLines, verifyReport } from '../../pipeline/report-verify';

/** `overrides`: one line per grade a person overrode (scored as the report has it, not a difference). */
export type VerifyOutcome =
  | { kind: 'match'; model: string; questions: number; manifest: boolean; overrides: string[] }
  | { kind: 'differ'; model: string; count: number; lines: string[]; overrides: string[] }
  | { kind: 'error'; message: string };

export async function verifyFiles(doc: ReportDocument, clustered: File, graded: File): Promise<VerifyOutcome> {
  const [c, g] = await Promise.all([clustered.text(), graded.text()]);
  const rows = readAuthorsRows({ text: c, file: clustered.name }, { text: g, file: graded.name });
  if (!rows.ok) return { kind: 'error', message: rows.error.message };
  const result = await verifyReport(doc, rows.value);
  if ('error' in result) return { kind: 'error', message: result.error };
  const overrides = overrideLines(result.overrides);
  if (result.differences.length === 0) return { kind: 'match', model: result.model, questions: result.checked, manifest: Boolean(doc.manifest), overrides };
  return { kind: 'differ', model: result.model, count: result.differences.length, lines: differenceLines(result.differences), overrides };
}
