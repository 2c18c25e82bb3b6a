/**
 * A person's grade override, applied to a report document: the question's grade and Y change,
 * and its model's metrics are recomputed from the document's per-question rows by the score
 * stage's own `modelMetrics` (confidences, margins and regimes do not depend on Y, so the rows
 * hold all that is needed: no run and no samples are required). The input is not modified.
 */
import type { ModelMetrics, ModelReport, ReportDocument, ReportQuestion, SignalName } from '../model/report';
import { modelMetrics, scoreOptionsFor, scoringUsed, type ScoreOptions } from './score';
import { gradeToY, type Grade, type Result } from '../model/rows';
import { assertRecomputeBudget } from '../model/scoring-limits';
import { PAPER_SIGNALS } from '../model/signals';

export { RecomputeTooLargeError } from '../model/scoring-limits';

/**
 * modelMetrics for rows that came from a document (an imported report, a share link): the
 * document's own settings decide how much work that is, so the budget is checked first and a
 * recompute over it throws RecomputeTooLargeError without starting.
 */
export function boundedModelMetrics(
  questions: readonly ReportQuestion[],
  context: { excluded: number; signals?: readonly SignalName[] },
  options: ScoreOptions = {},
): ModelMetrics {
  const { bins, bootstrap } = scoringUsed(options);
  assertRecomputeBudget({ rows: questions.length, B: bootstrap.B, signals: (context.signals ?? PAPER_SIGNALS).length, bins });
  return modelMetrics(questions, context, options);
}

/** The model's metrics from its rows, with the document's settings and the signals it had. */
export function recomputeMetrics(model: ModelReport, settings: ReportDocument['settings']) {
  return boundedModelMetrics(
    model.questions,
    { excluded: model.metrics.excluded, signals: Object.keys(model.metrics.signals) as SignalName[] },
    scoreOptionsFor(settings),
  );
}

/**
 * The document with question `questionId` of model `modelIndex` graded `grade` by hand, metrics
 * not yet recomputed (the caller recomputes them, e.g. off the main thread for large reports).
 */
export function withGradeOverride(doc: ReportDocument, modelIndex: number, questionId: string, grade: Grade): Result<ReportDocument> {
  const model = doc.models[modelIndex];
  if (!model) {
    return { ok: false, error: { kind: 'override', message: `There is no model number ${modelIndex + 1} in this report.`, where: 'models' } };
  }
  const at = model.questions.findIndex((q) => q.id === questionId);
  if (at < 0) {
    return { ok: false, error: { kind: 'override', message: `Question "${questionId}" is not among ${model.model}'s scored questions.`, where: model.model } };
  }
  const questions = model.questions.slice();
  questions[at] = { ...questions[at], grade, correct: gradeToY(grade), overridden: true };
  const models = doc.models.slice();
  models[modelIndex] = { ...model, questions };
  return { ok: true, value: { ...doc, models } };
}

/** The document with the model's metrics replaced. */
export function withMetrics(doc: ReportDocument, modelIndex: number, metrics: ModelReport['metrics']): ReportDocument {
  const models = doc.models.slice();
  models[modelIndex] = { ...models[modelIndex], metrics };
  return { ...doc, models };
}

/** The override and the recomputed metrics in one synchronous step. */
export function applyGradeOverride(doc: ReportDocument, modelIndex: number, questionId: string, grade: Grade): Result<ReportDocument> {
  const changed = withGradeOverride(doc, modelIndex, questionId, grade);
  if (!changed.ok) return changed;
  return { ok: true, value: withMetrics(changed.value, modelIndex, recomputeMetrics(changed.value.models[modelIndex], doc.settings)) };
}
