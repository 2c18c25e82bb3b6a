/**
 * Plain data for the difficulty diagnostic: the Sem1 − Sem2 gap of each question against its
 * margin Δ. Sem1 overshoots and Sem2 undershoots the oracle confidence when the margin is small,
 * so the gap is large on hard questions and near zero on easy ones.
 *
 * Up to `maxPoints` questions are drawn one mark each. Beyond that, one mark per distinct margin
 * (or per margin bin when margins are not discrete) with the mean gap, its count and the 10th–90th
 * percentile range, so a 40,000-question report draws a few dozen marks, not 40,000.
 */
import { mean, quantileSorted, ascending, groups } from 'd3-array';
import { JENSEN_THRESHOLD } from '../../core/regimes';
import type { ReportQuestion } from '../../formats/report-document';

export interface GapPoint {
  id: string;
  margin: number;
  gap: number;
  correct: 0 | 1;
}

export interface GapGroup {
  margin: number;
  meanGap: number;
  low: number;
  high: number;
  count: number;
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

/** Groups by margin; with more than `maxGroups` distinct margins, by equal-width margin bins. */
export function gapGroups(points: readonly GapPoint[], maxGroups = 60): GapGroup[] {
  // Margins are multiples of 1/n; rounding merges values that differ only in the last bits.
  const key = (m: number) => Math.round(m * 1e9) / 1e9;
  let grouped = groups(points, (p) => key(p.margin));
  if (grouped.length > maxGroups) {
    grouped = groups(points, (p) => (Math.min(maxGroups - 1, Math.floor(p.margin * maxGroups)) + 0.5) / maxGroups);
  }
  return grouped
    .map(([margin, members]) => {
      const gaps = members.map((p) => p.gap).sort(ascending);
      return {
        margin,
        meanGap: mean(gaps) ?? NaN,
        low: quantileSorted(gaps, 0.1) ?? NaN,
        high: quantileSorted(gaps, 0.9) ?? NaN,
        count: gaps.length,
      };
    })
    .sort((a, b) => a.margin - b.margin);
}

export function gapData(questions: readonly ReportQuestion[], maxPoints = 1500): GapData {
  const points = gapPoints(questions);
  if (points.length <= maxPoints) return { kind: 'points', points };
  return { kind: 'groups', groups: gapGroups(points), total: points.length };
}

/**
 * The margins where the regimes change for questions of n samples and K̄ mean classes, as the
 * core's regimeOf draws them: Jensen-dominated below 0.612/√n, large-margin from √(ln K̄ / n).
 */
export function regimeBoundaries(n: number, meanClasses: number): { jensen: number; large: number } {
  const large = meanClasses > 1 ? Math.sqrt(Math.log(meanClasses) / n) : 0;
  return { jensen: JENSEN_THRESHOLD / Math.sqrt(n), large };
}

/** The most common n among the questions (the run's sample count in practice). */
export function typicalN(questions: readonly ReportQuestion[]): number {
  const counts = new Map<number, number>();
  let best = NaN;
  let bestCount = 0;
  for (const q of questions) {
    const c = (counts.get(q.n) ?? 0) + 1;
    counts.set(q.n, c);
    if (c > bestCount) {
      best = q.n;
      bestCount = c;
    }
  }
  return best;
}
