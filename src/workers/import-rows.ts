/**
 * The question rows of an opened document, sent from the import worker to the page in parts:
 * the page decodes each part's structured clone in its own task (in one message, 54,000 rows
 * took over 100 ms to decode on the main thread), each part acknowledged before the next, so
 * the parts cannot overtake one another; the document follows with its question lists empty,
 * and the page puts the rows back. Apart from import-api.ts so the page's side loads neither
 * the decoder nor the schema.
 */
import type { ReportDocument, ReportQuestion } from '../model/report';

/** Receives model `model`'s next rows, in order; the next part waits for its promise. */
export type OnRows = (model: number, rows: ReportQuestion[]) => void | Promise<void>;

/** Rows per part: some 10 ms of decoding on the page's main thread. */
export const ROWS_PER_PART = 4000;

/** Hands the rows to `onRows` part by part; the document without them. */
export async function sendRows(doc: ReportDocument, onRows: OnRows): Promise<ReportDocument> {
  for (let m = 0; m < doc.models.length; m++) {
    const rows = doc.models[m].questions;
    for (let i = 0; i < rows.length; i += ROWS_PER_PART) await onRows(m, rows.slice(i, i + ROWS_PER_PART));
  }
  return { ...doc, models: doc.models.map((m) => ({ ...m, questions: [] })) };
}

/** The rows `sendRows` sent, put back: what the page shows is the document the worker checked. */
export function rowCollector(): { onRows: OnRows; restore(doc: ReportDocument): ReportDocument } {
  const parts: ReportQuestion[][][] = [];
  return {
    onRows(model, rows) {
      (parts[model] ??= []).push(rows);
    },
    restore(doc) {
      return { ...doc, models: doc.models.map((m, i) => ({ ...m, questions: parts[i] ? parts[i].flat() : m.questions })) };
    },
  };
}
