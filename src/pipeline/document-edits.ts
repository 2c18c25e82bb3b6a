/**
 * Edits of a report document that need no scoring: a person's grade override (the question's
 * grade and Y change) and a model's metrics swapped for recomputed ones. Apart from
 * overrides-recompute.ts, which recomputes with the score stage, so that a page showing a report
 * (the first page among them) can apply them without loading the scorer. Inputs are not modified.
 */
import type { ModelReport, ReportDocument } from '../model/report';
import { gradeToY, type Grade, type Result } from '../model/rows';

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
