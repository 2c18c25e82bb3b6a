/**
 * What the recompute worker serves: a model's metrics recomputed after a grade override and, for
 * a report saved before they were stored, its signals compared and each ECE given its interval;
 * also the Slices tab's slices. Each is seconds of work on a 40,000-row report that would hold
 * the page. Plain functions over the pipeline's; recompute.worker.ts serves them,
 * recompute-client.ts and slices-client.ts call them, tests call them directly.
 *
 * A failure comes back as a value in the one error shape (model/app-error.ts), its kind naming
 * what failed; the page words it (ui/error-text.ts).
 */
import type { ModelMetrics, ReportQuestion, SignalComparison, SignalName } from '../model/report';
import type { Result } from '../model/rows';
import { errorInfo } from '../model/app-error';
import type { ScoreOptions } from '../pipeline/score-stage';
import { boundedModelMetrics } from '../pipeline/overrides-recompute';
import { compareDocumentColumns, type CompareOptions } from '../pipeline/signal-comparison';
import { eceInferenceOfRows, type EceInferenceMetrics, type InferenceSettings } from '../pipeline/ece-inference-metrics';
import { sliceReport, type SliceAnalysis } from '../pipeline/slices';
import { standardizedMargin } from '../core/estimators';
import { REGIME_CODES, type PackedRows } from './recompute-rows';
import type { ReportDocument } from '../model/report';
import type { AuditLine } from '../formats/audit-file';
import { auditDocumentSummary, type AuditDocumentSummary } from '../pipeline/audit-summary';
import { auditStratum, type AuditStrata } from '../pipeline/audit-plan';
import { planBudget, type BudgetOption, type BudgetPlanInput } from '../core/budget-plan';

export interface RecomputeRequest {
  rows: PackedRows;
  excluded: number;
  signals: SignalName[];
  options: ScoreOptions;
}

/** A model's signal columns and grades, for the comparison of a report saved before it was stored. */
export interface CompareRequest {
  columns: Partial<Record<SignalName, Float64Array>>;
  correct: Uint8Array;
  options: CompareOptions;
}

/** A model's rows, for the ECE interval of a report saved before it was stored. */
export interface InferRequest {
  rows: PackedRows;
  signals: SignalName[];
  settings: InferenceSettings;
}

/** The Slices tab's request (slices-client.ts). */
export interface SliceRequest {
  questions: ReportQuestion[];
  column: string;
  signals: SignalName[];
  options: { bins: number; seed: number };
}

/** An audit's summary (pipeline/audit-summary.ts): the report, the audit's lines, how it was drawn. */
export interface AuditRequest {
  doc: ReportDocument;
  lines: AuditLine[];
  strata: AuditStrata;
  /**
   * The automatic class of each answer, by model and question, for questions whose answers the
   * report left out (read back from this browser's caches by the page).
   */
  assignments?: Record<string, Record<string, number[]>>;
}

export interface RecomputeWorkerApi {
  recompute(request: RecomputeRequest): Result<ModelMetrics>;
  compare(request: CompareRequest): Result<SignalComparison>;
  infer(request: InferRequest): Result<EceInferenceMetrics>;
  slices(request: SliceRequest): Result<SliceAnalysis>;
  audit(request: AuditRequest): Result<AuditDocumentSummary>;
  /** The New run wizard's budget planner (core/budget-plan.ts): seconds of simulated runs. */
  budget(request: BudgetPlanInput): Result<BudgetOption[]>;
}

/** The audit's summary over the whole document, its report recomputed with the corrections in place. */
export function auditOfRequest({ doc, lines, strata, assignments }: AuditRequest): AuditDocumentSummary {
  // auditSummary runs per model; a question's stored classes are found by the model whose rows hold that very object.
  const modelOf = new Map(doc.models.flatMap((m) => m.questions.map((q) => [q, m.model] as const)));
  const stratum = auditStratum(strata);
  return auditDocumentSummary(doc, lines, {
    recompute: true,
    ...(stratum ? { strata: stratum } : {}),
    // Else the page's (caches, a share link's), else the document's own (a kept copy of a rows share link).
    assignmentsOf: (q) => q.samples?.map((x) => x.cls) ?? assignments?.[modelOf.get(q) ?? '']?.[q.id] ?? doc.auditClasses?.[modelOf.get(q) ?? '']?.[q.id],
  });
}

/** Packed rows (recompute-rows.ts) as row objects with just the fields modelMetrics reads (text fields empty). */
export function unpackRows(p: PackedRows): ReportQuestion[] {
  const rows: ReportQuestion[] = new Array(p.sem1.length);
  const extraNames = Object.keys(p.extra) as SignalName[];
  for (let i = 0; i < rows.length; i++) {
    const row: ReportQuestion = {
      id: '', question: '', gold: '', modalLabel: '', grade: p.correct[i] ? 'CORRECT' : 'INCORRECT',
      n: p.n[i], sem1: p.sem1[i], sem2: p.sem2[i], verbalized: p.verbalized[i], correct: p.correct[i] as 0 | 1,
      margin: p.margin[i], stdMargin: standardizedMargin(p.margin[i], p.n[i]), regime: REGIME_CODES[p.regime[i]], entropy: NaN, nClasses: p.nClasses[i],
    };
    if (extraNames.length) row.signals = Object.fromEntries(extraNames.map((s) => [s, p.extra[s]![i]]));
    rows[i] = row;
  }
  return rows;
}

/** What `compute` returns, or what it threw as the one error shape, with `kind` naming what failed. */
function attempt<T>(kind: string, compute: () => T): Result<T> {
  try {
    return { ok: true, value: compute() };
  } catch (err) {
    return { ok: false, error: { ...errorInfo(err, 'recompute worker'), kind } };
  }
}

export const recomputeApi: RecomputeWorkerApi = {
  recompute: ({ rows, excluded, signals, options }) => attempt('override', () => boundedModelMetrics(unpackRows(rows), { excluded, signals }, options)),
  compare: ({ columns, correct, options }) => attempt('compare', () => compareDocumentColumns(columns, correct, options)),
  infer: ({ rows, signals, settings }) => attempt('infer', () => eceInferenceOfRows(unpackRows(rows), signals, settings)),
  slices: ({ questions, column, signals, options }) => attempt('slices', () => sliceReport(questions, column, signals, options)),
  audit: (request) => attempt('audit', () => auditOfRequest(request)),
  budget: (request) => attempt('budget', () => planBudget(request)),
};
