/**
 * Plain data for the difficulty diagnostic: the Sem1 − Sem2 gap of each question against its
 * margin Δ. Sem1 overshoots and Sem2 undershoots the oracle confidence when the margin is small,
 * so the gap is large on hard questions and near zero on easy ones.
 *
 * Up to `maxPoints` questions are drawn one mark each. Beyond that, one mark per distinct margin
 * (or per margin bin when margins are not discrete) with the mean gap, its count and the 10th–90th
 * percentile range, so a 40,000-question report draws a few dozen marks, not 40,000.
 */
import { gapByMargin, type GapGroup } from '../../core/gap-by-margin';
import { mostCommon } from '../../core/most-common';
import type { ReportQuestion } from '../../model/report';

export type { GapGroup };

export interface GapPoint {
  id: string;
  margin: number;
  gap: number;
  correct: 0 | 1;
}

export type GapData = { kind: 'points'; points: GapPoint[] } | { kind: 'groups'; groups: GapGroup[]; total: number };

export function gapPoints(questions: readonly ReportQuestion[]): GapPoint[] {
  const points: GapPoint[] = [];
  for (const q of questions) {
    const gap = q.sem1 - q.sem2;
    if (Number.isFinite(gap) && Number.isFinite(q.margin)) points.push({ id: q.id, margin: q.margin, gap, correct: q.correct });
  }
  return points;
}

export function gapData(questions: readonly ReportQuestion[], maxPoints = 1500): GapData {
  let finite = 0;
  for (const q of questions) if (Number.isFinite(q.sem1 - q.sem2) && Number.isFinite(q.margin)) finite++;
  if (finite <= maxPoints) return { kind: 'points', points: gapPoints(questions) };
  const margins = new Float64Array(finite);
  const gaps = new Float64Array(finite);
  let i = 0;
  for (const q of questions) {
    const gap = q.sem1 - q.sem2;
    if (Number.isFinite(gap) && Number.isFinite(q.margin)) {
      margins[i] = q.margin;
      gaps[i++] = gap;
    }
  }
  return { kind: 'groups', groups: gapByMargin(margins, gaps, 60), total: finite };
}

/** The most common n among the questions (the run's sample count in practice); NaN when none. */
export function typicalN(questions: readonly ReportQuestion[]): number {
  return mostCommon(questions.map((q) => q.n));
}
