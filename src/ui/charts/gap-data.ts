/**
 * Plain data for the difficulty diagnostic: the Sem1 − Sem2 gap of each question against its
 * margin Δ. Sem1 overshoots and Sem2 undershoots the oracle confidence when the margin is small,
 * so the gap is large on hard questions and near zero on easy ones.
 *
 * Up to `maxPoints` questions are drawn one mark each. Beyond that, one mark per distinct margin
 * (or per margin bin when margins are not discrete) with the mean gap, its count and the 10th–90th
 * percentile range, so a 40,000-question report draws a few dozen marks, not 40,000.
 */
import { JENSEN_THRESHOLD } from '../../core/regimes';
import type { ReportQuestion } from '../../model/report';

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

/** Linear-interpolated quantile of an ascending typed array (as d3's quantileSorted). */
function quantileOf(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return NaN;
  const h = (sorted.length - 1) * p;
  const lo = Math.floor(h);
  return lo + 1 < sorted.length ? sorted[lo] + (sorted[lo + 1] - sorted[lo]) * (h - lo) : sorted[lo];
}

/**
 * Groups by margin; with more than `maxGroups` distinct margins, by equal-width margin bins.
 * Works on plain arrays and typed buffers (no object per point) so 40,000 rows take a few ms.
 */
export function gapGroups(points: readonly { margin: number; gap: number }[], maxGroups = 60): GapGroup[] {
  return gapGroupsOf(Float64Array.from(points, (p) => p.margin), Float64Array.from(points, (p) => p.gap), maxGroups);
}

function gapGroupsOf(margins: Float64Array, gaps: Float64Array, maxGroups: number): GapGroup[] {
  const n = margins.length;
  // Margins are multiples of 1/n; rounding merges values that differ only in the last bits.
  const keyOf = (m: number) => Math.round(m * 1e9) / 1e9;
  let index = new Map<number, number>();
  for (let i = 0; i < n && index.size <= maxGroups; i++) {
    const k = keyOf(margins[i]);
    if (!index.has(k)) index.set(k, index.size);
  }
  let key = keyOf;
  if (index.size > maxGroups) {
    key = (m: number) => (Math.min(maxGroups - 1, Math.max(0, Math.floor(m * maxGroups))) + 0.5) / maxGroups;
    index = new Map();
    for (let i = 0; i < n; i++) {
      const k = key(margins[i]);
      if (!index.has(k)) index.set(k, index.size);
    }
  }
  const groupOf = new Int32Array(n);
  const counts = new Int32Array(index.size);
  for (let i = 0; i < n; i++) {
    const g = index.get(key(margins[i]))!;
    groupOf[i] = g;
    counts[g]++;
  }
  const buffers = Array.from(counts, (c) => new Float64Array(c));
  const fill = new Int32Array(index.size);
  for (let i = 0; i < n; i++) buffers[groupOf[i]][fill[groupOf[i]]++] = gaps[i];
  const groups: GapGroup[] = [];
  for (const [margin, g] of index) {
    const sorted = buffers[g].sort();
    let sum = 0;
    for (let j = 0; j < sorted.length; j++) sum += sorted[j];
    groups.push({ margin, meanGap: sum / sorted.length, low: quantileOf(sorted, 0.1), high: quantileOf(sorted, 0.9), count: sorted.length });
  }
  return groups.sort((a, b) => a.margin - b.margin);
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
  return { kind: 'groups', groups: gapGroupsOf(margins, gaps, 60), total: finite };
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
