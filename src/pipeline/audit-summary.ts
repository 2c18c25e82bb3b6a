/**
 * What an audit says about one model's report (issue 30), for the CLI and the page alike:
 * - agreement of grades (the modal answer's, CORRECT / INCORRECT / NOT_ATTEMPTED as three
 *   categories): raw agreement (Wilson interval) and Cohen's κ (bootstrap over the audited
 *   questions), core/grade-agreement.ts;
 * - agreement of classes: the mean adjusted Rand index and the pooled pairwise precision and
 *   recall of "same meaning", automatic against the person's partition (bootstrap over the
 *   audited questions), core/partition-agreement.ts;
 * - the same per margin regime (the report's regime of each question, the domain known for every
 *   question), and with `sliceBy` per slice of a question field (the report's slices, slices.ts);
 * - the audited questions as the person corrected them (audit-corrected-question.ts), their ECE and
 *   accuracy before and after, and, with `recompute`, the whole report's metrics with them in place;
 * - the estimated shift of the whole set's ECE were every question corrected, per signal that is
 *   a probability: the difference estimator of core/ece-shift.ts, post-stratified by regime in
 *   `byRegime`, stratified by the plan's strata when the draw was (`strata`);
 * - between people (when two or more audited a question): Krippendorff's α of the grades and of
 *   "same class" over answer pairs, bootstrap over questions, core/krippendorff-alpha.ts.
 * The person's line for a question is the first one for it (the project's rule for repeated ids);
 * the other people's lines serve the agreement between people.
 * The estimates assume the audited questions are a random draw (the plan's, audit-plan.ts); an
 * audit of hand-picked questions describes those questions only.
 */
import { AUDIT_GRADES, auditQuestionKey, type AuditGrade, type AuditLine } from '../formats/audit-file';
import { gradeAgreement, type GradeAgreement } from '../core/grade-agreement';
import { alphaWithInterval, addUnit } from '../core/krippendorff-alpha';
import { labelsOfClasses, pairCounts, partitionAgreement, type PairCounts, type PartitionAgreement } from '../core/partition-agreement';
import { eceShift, type EceShift } from '../core/ece-shift';
import { eceEqualWidth } from '../core/ece';
import type { Interval, Regime } from '../core/types';
import type { ModelMetrics, ModelReport, ReportDocument, ReportQuestion } from '../model/report';
import { isProbabilitySignal, SIGNAL_NAMES, signalValue, type SignalName } from '../model/signals';
import { correctedQuestion } from './audit-corrected-question';
import { sliceLabels } from './slices';
import { modelMetrics, scoreOptionsFor, scoringUsed, type ScoreOptions } from './score-stage';

const REGIMES: readonly Regime[] = ['jensen', 'low-margin', 'large-margin'];
/** Above this many answers a question's pairs are not enumerated for α between people (n² pairs). */
const MAX_PAIR_ANSWERS = 2000;

export const AUDIT_METHODS = Object.freeze({
  agreement: 'Wilson score interval, 95%',
  kappa: "Cohen's kappa, percentile bootstrap over the audited questions, 95%",
  ari: 'mean adjusted Rand index (Hubert & Arabie 1985), percentile bootstrap over the audited questions, 95%',
  pairwise: 'pooled pairwise precision/recall of "same class", percentile bootstrap over the audited questions, 95%',
  alpha: "Krippendorff's alpha (nominal), percentile bootstrap over questions, 95%",
  eceShift: 'difference estimator of the binned ECE (Särndal et al. 1992), Rao-Wu rescaled bootstrap over the audited questions, 95%',
});

export interface AuditSummaryOptions {
  /** The report's scoring settings (Sem2's R, seed, selection; bins; B and seed of the bootstraps). */
  scoring?: ScoreOptions;
  /**
   * The automatic class of each answer of a question, in sampling order. Default: the report's
   * samples (`q.samples[j].cls`); a report without samples needs this (the CLI hands its rows',
   * the page the stored ones).
   */
  assignmentsOf?: (q: ReportQuestion) => ArrayLike<number> | undefined;
  /** The strata the audit was drawn in (audit-plan.ts), when it was stratified. */
  strata?: (q: ReportQuestion) => string;
  /**
   * Also the same per slice of this question field (category, relation …), each slice's questions
   * the domain, as per regime: the slices of `semece score --by` (pipeline/slices.ts sliceLabels:
   * the same labels, a numeric field with many values binned the same way); questions without a
   * value are in no slice, as there.
   */
  sliceBy?: string;
  /** Signals whose ECE shift is estimated (default: every scored signal that is a probability). */
  signals?: readonly SignalName[];
  /** Also recompute the whole report's metrics with the corrected questions in place. */
  recompute?: boolean;
}

export interface AuditGrades extends GradeAgreement {
  /** Category order of the confusion table's rows (automatic) and columns (person). */
  categories: readonly AuditGrade[];
  /** Questions whose grade the person changed. */
  changed: number;
}

export interface AuditPart {
  questions: number;
  grades: AuditGrades;
  classes: PartitionAgreement;
  eceShift: Partial<Record<SignalName, EceShift>>;
}

export interface AuditSkipped {
  id: string;
  model?: string;
  reason: string;
}

export interface AuditBetweenPeople {
  people: string[];
  /** Questions audited by two or more people. */
  questions: number;
  /** α of the grades [estimate, low, high]. */
  grades: Interval;
  /** α of "same class" over every pair of answers. */
  classes: Interval;
}

export interface AuditSummary extends AuditPart {
  model: string;
  people: string[];
  /** Audit lines that could not be used, with why. */
  skipped: AuditSkipped[];
  byRegime: Partial<Record<Regime, AuditPart>>;
  /** With `sliceBy`: the same per slice of the field, in the report's slice order. */
  bySlice?: { field: string; values: Record<string, AuditPart> };
  /** The audited questions only: accuracy and each signal's ECE, automatic and as corrected. */
  sample: { accuracy: { automatic: number; person: number }; ece: Partial<Record<SignalName, { automatic: number; person: number }>> };
  /** The audited questions as the person corrected them, in the report's order. */
  corrected: ReportQuestion[];
  betweenPeople?: AuditBetweenPeople;
  /** With `recompute`: the whole report's metrics with the corrected questions in place. */
  recomputed?: ModelMetrics;
  methods: typeof AUDIT_METHODS;
}

const gradeCode = (g: AuditGrade) => AUDIT_GRADES.indexOf(g);

interface Matched {
  index: number;
  q: ReportQuestion;
  line: AuditLine;
  automatic: ArrayLike<number>;
  pairs: PairCounts;
  corrected: ReportQuestion;
}

/** The lines that apply to this model: its own, and unlabelled ones when it is the only model (the others are the document's to list). */
function linesFor(model: string, lines: readonly AuditLine[], onlyModel: boolean): AuditLine[] {
  return lines.filter((l) => {
    if (l.model === undefined ? onlyModel : l.model === model) return true;
    return false;
  });
}

/** The summary of one model's report and an audit (see the module comment). */
export function auditSummary(report: ModelReport, allLines: readonly AuditLine[], options: AuditSummaryOptions & { onlyModel?: boolean } = {}): AuditSummary {
  const scoring = scoringUsed(options.scoring);
  const boot = { B: scoring.bootstrap.B, seed: scoring.bootstrap.seed };
  const skipped: AuditSkipped[] = [];
  const lines = linesFor(report.model, allLines, options.onlyModel ?? true);
  const indexOf = new Map(report.questions.map((q, i) => [q.id, i]));
  const assignmentsOf = options.assignmentsOf ?? ((q: ReportQuestion) => q.samples?.map((s) => s.cls));
  const meanClasses = report.metrics.meanClasses;

  // One reference line per question (the first), the others kept for agreement between people.
  const byQuestion = new Map<string, AuditLine[]>();
  for (const l of lines) {
    const key = auditQuestionKey({ id: l.id });
    if (!byQuestion.has(key)) byQuestion.set(key, []);
    byQuestion.get(key)!.push(l);
  }
  const matched: Matched[] = [];
  const others = new Map<number, AuditLine[]>();
  for (const group of byQuestion.values()) {
    const line = group[0]!;
    const index = indexOf.get(line.id);
    if (index === undefined) {
      skipped.push({ id: line.id, ...(line.model ? { model: line.model } : {}), reason: 'not among the report\'s scored questions' });
      continue;
    }
    const q = report.questions[index]!;
    const count = line.classes.reduce((s, c) => s + c.length, 0);
    if (count !== q.n) {
      skipped.push({ id: line.id, reason: `the audit partitions ${count} answers but the question has ${q.n}` });
      continue;
    }
    const automatic = assignmentsOf(q);
    if (!automatic || automatic.length !== q.n) {
      skipped.push({ id: line.id, reason: 'the report keeps no classes per answer for this question' });
      continue;
    }
    const corrected = correctedQuestion(q, line, meanClasses, options.scoring);
    matched.push({ index, q, line, automatic, pairs: pairCounts(automatic, labelsOfClasses(line.classes, q.n)), corrected });
    if (group.length > 1) others.set(index, group);
  }
  matched.sort((a, b) => a.index - b.index);

  const signals = (options.signals ?? SIGNAL_NAMES.filter((s) => report.metrics.signals[s] !== undefined && isProbabilitySignal(s))).filter(
    (s) => report.questions.every((q) => Number.isFinite(signalValue(q, s))),
  );
  const strataLabels = options.strata ? report.questions.map(options.strata) : undefined;

  /** Agreement and the ECE shift over the questions `domain` (indices into the report) and the audited ones among them. */
  const part = (domain: readonly number[], audited: readonly Matched[]): AuditPart => {
    const grades = gradeAgreement(
      audited.map((m) => gradeCode(m.q.grade)),
      audited.map((m) => gradeCode(m.line.grade)),
      AUDIT_GRADES.length,
      boot,
    );
    const position = new Map(domain.map((i, j) => [i, j]));
    const codes = new Map<string, number>();
    const strata = strataLabels ? Int32Array.from(domain, (i) => {
      const label = strataLabels[i]!;
      if (!codes.has(label)) codes.set(label, codes.size);
      return codes.get(label)!;
    }) : undefined;
    const shift: Partial<Record<SignalName, EceShift>> = {};
    for (const s of signals) {
      shift[s] = eceShift(
        {
          conf: Float64Array.from(domain, (i) => signalValue(report.questions[i]!, s)),
          y: Float64Array.from(domain, (i) => report.questions[i]!.correct),
          audited: Int32Array.from(audited, (m) => position.get(m.index)!),
          correctedConf: Float64Array.from(audited, (m) => signalValue(m.corrected, s)),
          correctedY: Float64Array.from(audited, (m) => m.corrected.correct),
          ...(strata ? { strata } : {}),
        },
        { bins: scoring.bins, ...boot },
      );
    }
    return {
      questions: audited.length,
      grades: { ...grades, categories: AUDIT_GRADES, changed: audited.filter((m) => m.line.grade !== m.q.grade).length },
      classes: partitionAgreement(audited.map((m) => m.pairs), boot),
      eceShift: shift,
    };
  };

  const whole = part(report.questions.map((_, i) => i), matched);
  const byRegime: Partial<Record<Regime, AuditPart>> = {};
  for (const regime of REGIMES) {
    const domain = report.questions.flatMap((q, i) => (q.regime === regime ? [i] : []));
    if (domain.length > 0) byRegime[regime] = part(domain, matched.filter((m) => m.q.regime === regime));
  }

  let bySlice: AuditSummary['bySlice'];
  if (options.sliceBy !== undefined) {
    // The report's own slices (pipeline/slices.ts: the same labels, numbers binned the same way),
    // so an audit's slice is the report's slice of that name; questions without a value are in none.
    const { labels, order } = sliceLabels(report.questions, options.sliceBy);
    const domains = new Map<string, number[]>(order.map((v) => [v, []]));
    labels.forEach((v, i) => v !== undefined && domains.get(v)!.push(i));
    const values: Record<string, AuditPart> = {};
    for (const [v, domain] of domains) values[v] = part(domain, matched.filter((m) => labels[m.index] === v));
    bySlice = { field: options.sliceBy, values };
  }

  const ys = (qs: readonly ReportQuestion[]) => Float64Array.from(qs, (q) => q.correct);
  const mean = (a: Float64Array) => (a.length > 0 ? a.reduce((s, v) => s + v, 0) / a.length : NaN);
  const before = matched.map((m) => m.q), after = matched.map((m) => m.corrected);
  const sampleEce: AuditSummary['sample']['ece'] = {};
  for (const s of signals) {
    sampleEce[s] = {
      automatic: eceEqualWidth(Float64Array.from(before, (q) => signalValue(q, s)), ys(before), scoring.bins),
      person: eceEqualWidth(Float64Array.from(after, (q) => signalValue(q, s)), ys(after), scoring.bins),
    };
  }

  const summary: AuditSummary = {
    model: report.model,
    ...whole,
    people: [...new Set(lines.map((l) => l.by))],
    skipped,
    byRegime,
    ...(bySlice ? { bySlice } : {}),
    sample: { accuracy: { automatic: mean(ys(before)), person: mean(ys(after)) }, ece: sampleEce },
    corrected: after,
    methods: AUDIT_METHODS,
  };
  const between = betweenPeople(matched, others, boot);
  if (between) summary.betweenPeople = between;
  if (options.recompute) {
    const questions = report.questions.slice();
    for (const m of matched) questions[m.index] = m.corrected;
    const scored = Object.keys(report.metrics.signals) as SignalName[];
    summary.recomputed = modelMetrics(questions, { excluded: report.metrics.excluded, signals: scored }, { ...options.scoring, viewExtras: false });
  }
  return summary;
}

/** Krippendorff's α between the people who audited the same questions (undefined when no question has two). */
function betweenPeople(matched: readonly Matched[], others: ReadonlyMap<number, AuditLine[]>, boot: { B: number; seed: number }): AuditBetweenPeople | undefined {
  const gradeGroups: Float64Array[] = [];
  const classGroups: Float64Array[] = [];
  const people = new Set<string>();
  for (const m of matched) {
    const group = (others.get(m.index) ?? []).filter((l) => l.classes.reduce((s, c) => s + c.length, 0) === m.q.n);
    if (group.length < 2) continue;
    for (const l of group) people.add(l.by);
    const g = new Float64Array(AUDIT_GRADES.length ** 2);
    addUnit(g, group.map((l) => gradeCode(l.grade)), AUDIT_GRADES.length);
    gradeGroups.push(g);
    if (m.q.n > MAX_PAIR_ANSWERS) continue;
    // Each pair of answers is a unit coded "same" (1) or "different" (0) by each person.
    const labels = group.map((l) => labelsOfClasses(l.classes, m.q.n));
    const c = new Float64Array(4);
    const values: number[] = new Array(group.length);
    for (let i = 0; i < m.q.n; i++) {
      for (let j = i + 1; j < m.q.n; j++) {
        for (let p = 0; p < group.length; p++) values[p] = labels[p]![i] === labels[p]![j] ? 1 : 0;
        addUnit(c, values, 2);
      }
    }
    classGroups.push(c);
  }
  if (gradeGroups.length === 0) return undefined;
  return {
    people: [...people],
    questions: gradeGroups.length,
    grades: alphaWithInterval(gradeGroups, AUDIT_GRADES.length, boot).alpha,
    classes: alphaWithInterval(classGroups, 2, boot).alpha,
  };
}

export interface AuditDocumentSummary {
  /** The clusterer and grader the automatic side came from (the report's settings). */
  clustering: ReportDocument['settings']['clustering'];
  grading: ReportDocument['settings']['grading'];
  /** One summary per model of the report that the audit has lines for. */
  models: AuditSummary[];
  /** Lines for no model of the report. */
  skipped: AuditSkipped[];
}

/** An audit over a whole report document: each model's summary with the report's own scoring settings. */
export function auditDocumentSummary(doc: ReportDocument, lines: readonly AuditLine[], options: Omit<AuditSummaryOptions, 'scoring'> & { scoring?: ScoreOptions } = {}): AuditDocumentSummary {
  const scoring = { ...scoreOptionsFor(doc.settings), ...options.scoring };
  const onlyModel = doc.models.length === 1;
  const names = new Set(doc.models.map((m) => m.model));
  const skipped: AuditSkipped[] = lines.filter((l) => l.model !== undefined && !names.has(l.model)).map((l) => ({ id: l.id, model: l.model, reason: 'the report has no such model' }));
  const models = doc.models
    .filter((m) => lines.some((l) => (l.model === undefined ? onlyModel : l.model === m.model)))
    .map((m) => auditSummary(m, lines, { ...options, scoring, onlyModel }));
  if (!onlyModel && lines.some((l) => l.model === undefined)) {
    for (const l of lines) if (l.model === undefined) skipped.push({ id: l.id, reason: 'the report has several models and the line names none' });
  }
  return { clustering: doc.settings.clustering, grading: doc.settings.grading, models, skipped };
}
