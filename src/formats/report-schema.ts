/**
 * The zod schema of the report document (report-document.ts) and the importer every way in uses
 * (Open report, a share link, the offline HTML viewer). A file from anywhere is untrusted: it is
 * refused with a message naming the first bad field, never half-loaded.
 *
 * Limits and null handling (documented here because users meet them as messages):
 * - a report file may be at most MAX_REPORT_BYTES (200 MB); any one string at most
 *   MAX_STRING_LENGTH (100,000 characters); larger inputs are refused before parsing. Both are
 *   stated in report-limits.ts, whose fitReportLimits every writer applies: a longer text the app
 *   itself produced (a model's reply) is cut there with a marker, so the app's files always open.
 * - JSON has no NaN: the app writes an undefined statistic as null. On import, null is accepted
 *   only where the core may produce NaN — every number under `metrics` (ECEs, Brier parts, AUROC,
 *   bin means of empty bins, interval bounds) — and is read back as NaN. A per-question signal
 *   in `signals` may be null, meaning "not available for this question" (the key is dropped).
 *   Per-question Sem1, Sem2, verbalized, margin, entropy and every count must be finite numbers.
 * - Infinity cannot come from the app (JSON.stringify writes it as null); a literal like 1e999
 *   parses to Infinity and is refused as "expected a finite number".
 */
import { z } from 'zod';
import {
  REPORT_FORMAT,
  REPORT_VERSION,
  type ReportDocument,
} from '../model/report';
import type { Result, StageError } from '../model/rows';
import { METRICS, type MetricKey } from '../model/metrics';
import { SIGNAL_NAMES, type SignalName } from '../model/signals';

import { MAX_REPORT_BYTES, MAX_STRING_LENGTH } from './report-limits';

// Stated once in report-limits.ts, which the writer cuts documents to.
export { MAX_REPORT_BYTES, MAX_STRING_LENGTH };

/** Zod error text: "missing" when the field is absent, else what was expected. */
const expect = (what: string) => (iss: { input?: unknown }) =>
  iss.input === undefined ? `missing (expected ${what})` : `expected ${what}`;

const text = (what = 'a string') =>
  z
    .string({ error: expect(what) })
    .max(MAX_STRING_LENGTH, { error: `text longer than ${MAX_STRING_LENGTH.toLocaleString('en')} characters` });

const finite = () => z.number({ error: expect('a finite number') });
const unit = () =>
  z
    .number({ error: expect('a number in [0,1]') })
    .min(0, { error: expect('a number in [0,1]') })
    .max(1, { error: expect('a number in [0,1]') });
const count = (min = 0) =>
  z
    .number({ error: expect('a whole number') })
    .int({ error: expect('a whole number') })
    .min(min, { error: `expected a whole number ≥ ${min}` });
/** A statistic the core may leave undefined: null in JSON, NaN in memory. */
const stat = () =>
  z.union([finite(), z.null()], { error: expect('a finite number or null') }).transform((v) => (v === null ? Number.NaN : v));
const unitOrNaN = () =>
  z.union([unit(), z.null()], { error: expect('a number in [0,1] or null') }).transform((v) => (v === null ? Number.NaN : v));

/** An object keyed by signal name, each key optional; unknown keys are dropped. */
function bySignal<T extends z.ZodType>(value: T) {
  return z.object(Object.fromEntries(SIGNAL_NAMES.map((s) => [s, value.optional()])) as Record<SignalName, z.ZodOptional<T>>);
}

const signalName = z.enum(SIGNAL_NAMES, { error: `expected one of ${SIGNAL_NAMES.join(', ')}` });

const interval = z.tuple([stat(), stat(), stat()], { error: expect('[point, low, high]') });

const reliabilityBin = z.object({
  lo: unit(),
  hi: unit(),
  count: count(),
  meanConfidence: unitOrNaN(),
  accuracy: unitOrNaN(),
});

const brierDecomposition = z.object({ score: stat(), reliability: stat(), resolution: stat(), uncertainty: stat() });

/** One field per metric of the metrics table (Brier as its decomposition), then the reliability bins. */
const signalMetrics = z.object({
  ...(Object.fromEntries(METRICS.map((m) => [m.key, m.shape === 'brier' ? brierDecomposition : stat()])) as Record<
    Exclude<MetricKey, 'brier'>,
    ReturnType<typeof stat>
  > & { brier: typeof brierDecomposition }),
  bins: z.array(reliabilityBin).max(10_000),
  binsEqualMass: z.array(reliabilityBin).max(10_000),
});

const regimeEntry = z.object({ count: count(), ece: bySignal(stat()) });

/** The stored signal comparison (model/report.ts SignalComparison). */
const signalComparison = z.object({
  rows: count(),
  compared: z.array(signalName).max(SIGNAL_NAMES.length),
  excluded: z.array(z.object({ signal: signalName, reason: text() })).max(SIGNAL_NAMES.length),
  ece: bySignal(interval),
  best: signalName.nullable(),
  runnerUp: signalName.nullable(),
  byHowMuch: interval.nullable(),
  intervals: bySignal(interval),
  clearlyBetterThan: z.array(signalName).max(SIGNAL_NAMES.length),
  B: count(),
  seed: finite(),
});

const modelMetrics = z.object({
  questions: count(),
  excluded: count(),
  accuracy: stat(),
  signals: bySignal(signalMetrics),
  bootstrap: z.object({
    d_conf: interval,
    d_ece: interval,
    d_ece_lo: interval,
    n_lo: count(),
    B: count(),
    seed: finite(),
  }),
  eceIntervals: bySignal(interval),
  byRegime: z.object({ jensen: regimeEntry, 'low-margin': regimeEntry, 'large-margin': regimeEntry }),
  meanClasses: stat(),
  comparison: signalComparison.optional(),
});

const reportSample = z.object({
  raw: text().optional(),
  // The reply's length when the writer cut it to MAX_STRING_LENGTH (report-limits.ts).
  rawLength: count().optional(),
  answer: text(),
  confidence: z.union([unit(), z.null()], { error: expect('a number in [0,1] or null') }),
  cls: count(),
});

/** A per-question signal may be null (not available here): the key is dropped. */
const questionSignals = bySignal(z.union([unit(), z.null()], { error: expect('a number in [0,1] or null') })).transform(
  (s) => Object.fromEntries(Object.entries(s).filter(([, v]) => v !== null && v !== undefined)) as Partial<Record<SignalName, number>>,
);

const reportQuestion = z
  .object({
    id: text(),
    question: text(),
    gold: text(),
    n: count(1),
    sem1: unit(),
    sem2: unit(),
    verbalized: unit(),
    signals: questionSignals.optional(),
    correct: z.union([z.literal(0), z.literal(1)], { error: expect('0 or 1') }),
    grade: z.enum(['CORRECT', 'INCORRECT', 'NOT_ATTEMPTED'], { error: expect('CORRECT, INCORRECT or NOT_ATTEMPTED') }),
    overridden: z.boolean({ error: expect('true or false') }).optional(),
    margin: unit(),
    stdMargin: finite().min(0, { error: expect('a number ≥ 0') }),
    regime: z.enum(['jensen', 'low-margin', 'large-margin'], { error: expect('jensen, low-margin or large-margin') }),
    entropy: finite().min(0, { error: expect('a number ≥ 0') }),
    nClasses: count(),
    modalLabel: text(),
    classes: z.array(z.object({ label: text(), size: count() })).max(100_000).optional(),
    samples: z.array(reportSample).max(100_000).optional(),
  })
  .superRefine((q, ctx) => {
    // A drill-down indexes classes by a sample's cls: an index past the list would show nothing.
    if (!q.classes || !q.samples) return;
    q.samples.forEach((s, i) => {
      if (s.cls >= q.classes!.length) {
        ctx.addIssue({
          code: 'custom',
          path: ['samples', i, 'cls'],
          message: `class index ${s.cls} but the question lists ${q.classes!.length} classes`,
        });
      }
    });
  });

/** Across runs: a mean and SD the core may leave undefined (one run: SD null), each run's value. */
const runSpread = z.object({ mean: stat(), sd: stat(), perRun: z.array(stat()).max(10_000) });

/** The stated-probability baseline (report-document.ts McBaselineSection). */
const mcBaseline = z
  .object({
    kind: z.literal('confidencebench', { error: expect("'confidencebench'") }),
    runs: count(1),
    options: z.array(count(2).max(10, { error: 'expected 2 to 10 options' })).max(1_000_000),
    brier: runSpread,
    baselineBrier: stat(),
    accuracy: runSpread,
    byCategory: z
      .array(z.object({ category: text(), questions: count(), brier: stat(), baselineBrier: stat(), accuracy: stat() }))
      .max(100_000),
    failures: z.object({ unparsable: count(), refusals: count(), requestFailed: count(), total: count(), perRun: z.array(count()).max(10_000) }),
  })
  .superRefine((b, ctx) => {
    // The panel draws one bar per run: a list that disagrees with `runs` would draw the wrong chart.
    for (const key of ['brier', 'accuracy'] as const) {
      if (b[key].perRun.length !== b.runs) {
        ctx.addIssue({ code: 'custom', path: [key, 'perRun'], message: `${b[key].perRun.length} values but runs is ${b.runs}` });
      }
    }
    if (b.failures.unparsable + b.failures.refusals + b.failures.requestFailed !== b.failures.total) {
      ctx.addIssue({ code: 'custom', path: ['failures', 'total'], message: 'expected unparsable + refusals + requestFailed' });
    }
  });

const modelReport = z.object({
  model: text(),
  provider: text().optional(),
  metrics: modelMetrics,
  questions: z.array(reportQuestion).max(1_000_000),
  excludedQuestions: z.array(z.object({ id: text(), reason: text() })).max(1_000_000),
  baseline: mcBaseline.optional(),
});

const method = <T extends readonly [string, ...string[]]>(values: T) =>
  z.object({ method: z.enum(values, { error: `expected one of ${values.join(', ')}` }), detail: text().optional() });

const reportSettings = z.object({
  // 0: no Sem-ECE sampling (a report holding only the stated-probability baseline).
  samples: count(0),
  temperature: finite().optional(),
  topP: finite().optional(),
  maxTokens: count().optional(),
  prompt: text().optional(),
  clustering: method(['judge', 'embedding', 'exact', 'imported'] as const),
  grading: method(['judge', 'alias', 'imported', 'manual'] as const),
  sem2: z.object({
    R: count(1),
    seed: finite(),
    selection: z.union([z.literal('half'), count(1)], { error: "expected 'half' or a whole number" }),
  }),
  bins: count(1),
  bootstrap: z.object({ B: count(), seed: finite() }),
});

export const reportDocumentSchema = z.object({
  format: z.literal(REPORT_FORMAT),
  version: z.literal(REPORT_VERSION),
  title: text(),
  createdAt: text(),
  demo: z.boolean({ error: expect('true or false') }).optional(),
  dataset: z.object({ name: text(), questions: count(), source: text().optional() }),
  settings: reportSettings,
  models: z.array(modelReport).max(1000),
});

// The schema's output must be usable wherever a ReportDocument is expected.
type Parsed = z.output<typeof reportDocumentSchema>;
const _assignable = (p: Parsed): ReportDocument => p;
void _assignable;

/** "models[0].questions[12].sem1" from zod's path array. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out ? `.${String(key)}` : String(key);
  }
  return out || '(document)';
}

function refuse(message: string, where?: string): Result<ReportDocument> {
  const error: StageError = { kind: 'report-import', message, ...(where ? { where } : {}) };
  return { ok: false, error };
}

function describeSize(chars: number): string {
  return `${(chars / 1024 / 1024).toFixed(1)} MB`;
}

/** Checks the envelope first, so an unknown version gets its own message rather than a list of field errors. */
function checkEnvelope(value: unknown): Result<ReportDocument> | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return refuse('Not a Sem-ECE report: expected a JSON object at the top level.');
  }
  const { format, version } = value as Record<string, unknown>;
  if (format !== REPORT_FORMAT) {
    return refuse(`Not a Sem-ECE report: "format" must be "${REPORT_FORMAT}".`, 'format');
  }
  if (version !== REPORT_VERSION) {
    const shown = typeof version === 'number' || typeof version === 'string' ? JSON.stringify(version) : 'missing';
    return refuse(
      `Unsupported report version ${shown}: this app reads version ${REPORT_VERSION}. ` +
        (typeof version === 'number' && version > REPORT_VERSION ? 'The file was made by a newer version of the app.' : ''),
      'version',
    );
  }
  return null;
}

/**
 * Validates a report from JSON text or an already parsed value. Returns the document (nulls read
 * back as NaN where allowed) or a typed error whose message starts with the path of the first bad field.
 */
export function parseReport(input: string | unknown): Result<ReportDocument> {
  let value: unknown = input;
  if (typeof input === 'string') {
    // A UTF-16 length bounds the UTF-8 size from below, so this refuses only what is over the limit.
    if (input.length > MAX_REPORT_BYTES) {
      return refuse(`The report is ${describeSize(input.length)}; the limit is ${describeSize(MAX_REPORT_BYTES)}.`);
    }
    try {
      value = JSON.parse(input);
    } catch (e) {
      return refuse(`The file is not valid JSON: ${(e as Error).message}`);
    }
  }
  const envelope = checkEnvelope(value);
  if (envelope) return envelope;
  let parsed;
  try {
    parsed = reportDocumentSchema.safeParse(value, {
      error: (iss) => (iss.code === 'invalid_type' && iss.input === undefined ? `missing (expected ${iss.expected})` : undefined),
    });
  } catch (e) {
    // Only absurd inputs (nesting deep enough to exhaust the stack) get here.
    return refuse(`The report could not be checked: ${(e as Error).message}`);
  }
  if (parsed.success) return { ok: true, value: parsed.data };
  const issues = parsed.error.issues;
  const first = issues[0];
  const where = formatPath(first.path);
  const more = issues.length > 1 ? ` (and ${issues.length - 1} more problem${issues.length > 2 ? 's' : ''})` : '';
  return refuse(`${where}: ${first.message}${more}`, where);
}

/** Reads a user's file, refusing one over the size limit before reading a byte of it. */
export async function parseReportFile(file: Blob & { name?: string }): Promise<Result<ReportDocument>> {
  if (file.size > MAX_REPORT_BYTES) {
    return refuse(`${file.name ?? 'The file'} is ${describeSize(file.size)}; the limit is ${describeSize(MAX_REPORT_BYTES)}.`);
  }
  let content: string;
  try {
    content = await file.text();
  } catch (e) {
    return refuse(`${file.name ?? 'The file'} could not be read: ${(e as Error).message}`);
  }
  const result = parseReport(content);
  if (!result.ok && file.name) result.error.message = `${file.name}: ${result.error.message}`;
  return result;
}
