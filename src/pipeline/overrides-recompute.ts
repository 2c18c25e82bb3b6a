/**
 * A person's grade override, applied to a report document: the question's grade and Y change,
 * and its model's metrics are recomputed from the document's per-question rows by the score
 * stage's own `modelMetrics` (confidences, margins and regimes do not depend on Y, so the rows
 * hold all that is needed: no run and no samples are required). The input is not modified.
 */
import type { ModelMetrics, ModelReport, ReportDocument, ReportQuestion, SignalName } from '../model/report';
import { modelMetrics, scoreOptionsFor, scoringUsed, type ScoreOptions } from './score-stage';
import type { Grade, Result } from '../model/rows';
import { assertRecomputeBudget } from '../model/scoring-limits';
import { PAPER_SIGNALS } from '../model/signals';

import { withGradeOverride, withMetrics } from './document-edits';

export { RecomputeTooLargeError } from '../model/scoring-limits';
// The edits themselves live apart from the scorer, so a page that only shows a report need not load it.
export { withGradeOverride, withMetrics } from './document-edits';

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

/** The override and the recomputed metrics in one synchronous step. */
export function applyGradeOverride(doc: ReportDocument, modelIndex: number, questionId: string, grade: Grade): Result<ReportDocument> {
  const changed = withGradeOverride(doc, modelIndex, questionId, grade);
  if (!changed.ok) return changed;
  return { ok: true, value: withMetrics(changed.value, modelIndex, recomputeMetrics(changed.value.models[modelIndex], doc.settings)) };
}
