/**
 * The short dataset columns a question keeps through a run into its report (ReportQuestion.fields):
 * what the Slices view and `semece score --by` slice by. Bounded, so a dataset with long or many
 * columns cannot bloat a report: at most MAX_QUESTION_FIELDS fields, names up to
 * MAX_FIELD_NAME_LENGTH characters, values short strings or finite numbers. Anything else is
 * simply not kept (a report is a summary, not a copy of the dataset).
 */
export const MAX_QUESTION_FIELDS = 8;
export const MAX_FIELD_NAME_LENGTH = 40;
export const MAX_FIELD_TEXT_LENGTH = 80;

export type QuestionFields = Record<string, string | number>;

/** Whether one value may be kept. */
export function keepableValue(v: unknown): v is string | number {
  return (typeof v === 'string' && v.trim() !== '' && v.length <= MAX_FIELD_TEXT_LENGTH) || (typeof v === 'number' && Number.isFinite(v));
}

/** The keepable top-level fields of a row, except the `reserved` ones, in the row's order; undefined when none. */
export function keptFields(row: Record<string, unknown>, reserved: ReadonlySet<string>): QuestionFields | undefined {
  let out: QuestionFields | undefined;
  let kept = 0;
  // Object.keys, not Object.entries: the same keys in the same order, without a [key, value]
  // pair per field (40,000 rows × every field, most of them reserved, when scoring).
  for (const k of Object.keys(row)) {
    if (kept >= MAX_QUESTION_FIELDS) break;
    if (reserved.has(k) || k.length > MAX_FIELD_NAME_LENGTH) continue;
    const v = row[k];
    if (!keepableValue(v)) continue;
    (out ??= {})[k] = v;
    kept++;
  }
  return out;
}

/** The columns a dataset's questions keep into a run's report, by question id: the category and the kept fields, bounded. */
export function questionFieldsById(questions: readonly { id: string; category?: string; fields?: QuestionFields }[]): Record<string, QuestionFields> {
  const out: Record<string, QuestionFields> = {};
  for (const q of questions) {
    const kept = keptFields({ ...(q.category ? { category: q.category } : {}), ...q.fields }, new Set());
    if (kept) out[q.id] = kept;
  }
  return out;
}
