/**
 * The audit plan (issue 30): how many questions a person should audit for a stated precision,
 * and which ones: a seeded random draw of k of the report's questions, plain or stratified by
 * margin regime or by a slice's field, through the dataset subset draw
 * (formats/datasets/subset.ts: numpy's default_rng(seed).permutation, proportional quotas by
 * largest remainder), so the same seed draws the same questions anywhere.
 */
import { agreementSampleSize, chanceAgreement, kappaSampleSize } from '../core/audit-sample-size';
import { AUDIT_GRADES } from '../formats/audit-file';
import { drawKey, type AuditPlanLine } from '../formats/audit-plan-line';
import { drawSubset } from '../formats/datasets/subset';
import type { ReportQuestion } from '../model/report';
import type { Question } from '../model/rows';

export interface AuditSizeRequest {
  /** The half-width wanted of the 95 % interval of the raw agreement and of κ. */
  halfWidth: number;
  /** Expected raw agreement between the grader and the person (default 0.9). */
  expectedAgreement?: number;
}

export interface AuditSize {
  /** Questions in the report. */
  population: number;
  /** Automatic grades per category, in AUDIT_GRADES order. */
  gradeCounts: number[];
  /** Chance agreement p_e if the person grades with these shares. */
  chanceAgreement: number;
  /** Questions for the raw agreement's half-width. */
  agreement: number;
  /** Questions for κ's half-width (Infinity when every automatic grade is one category). */
  kappa: number;
}

/** Questions needed for the stated half-widths (core/audit-sample-size.ts), from the report's grades. */
export function auditSize(questions: readonly ReportQuestion[], request: AuditSizeRequest): AuditSize {
  const gradeCounts = AUDIT_GRADES.map((g) => questions.filter((q) => q.grade === g).length);
  const pe = chanceAgreement(gradeCounts);
  const population = questions.length;
  const expected = request.expectedAgreement ?? 0.9;
  return {
    population,
    gradeCounts,
    chanceAgreement: pe,
    agreement: agreementSampleSize({ halfWidth: request.halfWidth, expected, population }),
    kappa: Number.isFinite(pe) ? kappaSampleSize({ halfWidth: request.halfWidth, expectedAgreement: expected, chanceAgreement: pe, population }) : NaN,
  };
}

/** How the draw is stratified: not at all, by the report's margin regime, or by a field of the questions. */
export type AuditStrata = { by: 'none' } | { by: 'regime' } | { by: 'field'; field: string };

/** The stratum label of a question (the same function the summary's `strata` option takes). */
export function auditStratum(strata: AuditStrata): ((q: ReportQuestion) => string) | undefined {
  if (strata.by === 'regime') return (q) => q.regime;
  if (strata.by === 'field') return (q) => String(q.fields?.[strata.field] ?? '');
  return undefined;
}

export interface AuditDraw {
  /** The drawn questions' ids, in the report's order. */
  ids: string[];
  seed: number;
  /** Questions drawn from. */
  of: number;
  strata: AuditStrata;
}

/** k of the questions by seeded draw (all of them when k ≥ their number). */
export function drawAuditQuestions(questions: readonly ReportQuestion[], k: number, seed: number, strata: AuditStrata = { by: 'none' }): AuditDraw {
  const stratum = auditStratum(strata);
  // The subset draw stratifies by a question's category: the stratum stands in for it.
  const asQuestions: Question[] = questions.map((q) => ({ id: q.id, question: '', answer: '', ...(stratum ? { category: stratum(q) } : {}) }));
  const drawn = drawSubset({ name: 'audit', source: 'report', questions: asQuestions }, { n: k, seed, stratify: stratum !== undefined });
  return { ids: drawn.questions.map((q) => q.id), seed, of: questions.length, strata };
}

/**
 * The strata the audit's questions were drawn in, from the audit file's plans (formats/audit-plan-line.ts):
 * those of the plans for `model` (undefined: the plans that name none) when they are one stratified
 * draw; none otherwise. Questions from different draws are not one stratified draw, so their
 * estimates fall back to the plain ones (and the reader is told of the mismatch where the plans are shown).
 */
export function planStrata(plans: readonly AuditPlanLine[], model?: string): AuditStrata {
  const mine = plans.filter((p) => p.model === model || p.model === undefined);
  if (mine.length === 0 || new Set(mine.map(drawKey)).size > 1) return { by: 'none' };
  const p = mine[0]!;
  if (p.draw !== 'stratified' || p.strata === undefined) return { by: 'none' };
  return p.strata === 'regime' ? { by: 'regime' } : { by: 'field', field: p.strata };
}
