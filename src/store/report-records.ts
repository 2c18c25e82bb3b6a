/**
 * Reading a saved report back: the stored record's envelope is checked, its document upgraded
 * from the version it was saved at (REPORT_VERSIONS) and validated by the report schema every
 * import uses (formats/report-schema.ts), so a report from this browser's store is held to the
 * same rules as a file or a share link.
 */
import { z } from 'zod';
import { formatPath } from '../formats/field-path';
import { parseReport } from '../formats/report-import';
import type { ReportDocument } from '../model/report';
// The same versions and steps as a report file or a share link (formats/report-versions.ts).
import { REPORT_VERSIONS } from '../formats/report-versions';
import { isRecord, StoredRecordError, upgradeToCurrent } from './stored-records';

/** What a list of saved reports shows, without the report's rows. */
export interface SavedReportSummary {
  id: string;
  title: string;
  savedAt: string;
  models: string[];
  questions: number;
  demo: boolean;
  /** Set when the report is of the repository's toy models (ReportDocument.testModel): listed as such. */
  testModel?: true;
  /** Why the stored report cannot be opened, when it cannot (it is listed so it can be deleted). */
  problem?: string;
}

const where = (key: string) => `reports/${key}`;

/**
 * The document with every non-finite number as null: a document in memory holds NaN where the
 * core leaves a statistic undefined, its JSON (what the schema reads) holds null.
 */
function asJsonValues(value: unknown): unknown {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (Array.isArray(value)) return value.map(asJsonValues);
  if (isRecord(value)) {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value)) if (value[key] !== undefined) out[key] = asJsonValues(value[key]);
    return out;
  }
  return value;
}

function envelope(key: string, stored: unknown): { document: Record<string, unknown>; savedAt: string } {
  if (!isRecord(stored) || !isRecord(stored.document)) throw new StoredRecordError(where(key), `The saved report "${key}" holds no report document.`);
  if (typeof stored.savedAt !== 'string') throw new StoredRecordError(where(key), `The saved report "${key}" has no valid savedAt date.`);
  return { document: stored.document, savedAt: stored.savedAt };
}

function upgraded(key: string, document: Record<string, unknown>): unknown {
  return upgradeToCurrent(document, document.version, REPORT_VERSIONS, where(key), `report "${key}"`);
}

/** The saved report as a valid, current document; throws a StoredRecordError naming what is wrong. */
export function readStoredReport(key: string, stored: unknown): ReportDocument {
  const { document } = envelope(key, stored);
  const parsed = parseReport(asJsonValues(upgraded(key, document)));
  if (!parsed.ok) throw new StoredRecordError(where(key), `The saved report "${key}" cannot be opened: ${parsed.error.message}`);
  return parsed.value;
}

/** Only what a summary shows is read, so listing many large reports stays quick. */
const summaryFields = z.object({
  title: z.string(),
  demo: z.boolean().optional(),
  testModel: z.array(z.string()).optional(),
  dataset: z.object({ questions: z.number() }),
  models: z.array(z.object({ model: z.string() })),
});

/** A saved report's summary; one that cannot be read is summarised with its problem. */
export function storedReportSummary(key: string, stored: unknown): SavedReportSummary {
  try {
    const { document, savedAt } = envelope(key, stored);
    const checked = summaryFields.safeParse(upgraded(key, document));
    if (!checked.success) {
      const issue = checked.error.issues[0];
      throw new StoredRecordError(where(key), `The saved report "${key}" cannot be opened: ${formatPath(issue.path)}: ${issue.message}`);
    }
    const doc = checked.data;
    return { id: key, title: doc.title, savedAt, models: doc.models.map((m) => m.model), questions: doc.dataset.questions, demo: Boolean(doc.demo), ...(doc.testModel?.length ? { testModel: true as const } : {}) };
  } catch (e) {
    if (!(e instanceof StoredRecordError)) throw e;
    const savedAt = isRecord(stored) && typeof stored.savedAt === 'string' ? stored.savedAt : '';
    return { id: key, title: key, savedAt, models: [], questions: 0, demo: false, problem: e.message };
  }
}
