/**
 * The Classroom's numbers against the paper's theory, within Monte Carlo error: each claim is
 * checked with a margin of several standard errors computed from the simulated data itself.
 */
import { describe, expect, test } from 'vitest';
import { DEFAULT_SETTINGS, normalizeSettings, runClassroom, runClassroomInSlices } from '../../../../src/ui/classroom/classroom-model';
import { meanSE } from '../../../../src/core/standard-error';
import { convergenceAt, convergenceSweep, hardestQuestion, winnersCurse } from '../../../../src/ui/classroom/classroom-steps';
import { PRESETS } from '../../../../src/ui/classroom/claim-presets';
import { sem2HeldOut } from '../../../../src/core/estimators';

const preset = (id: string) => PRESETS.find((p) => p.id === id)!.settings;

describe('classroom simulation agrees with the theory', () => {
  test('hard preset: mean Sem1 − c* > 0 and mean Sem2 − c* < 0, each by more than 4 standard errors', () => {
    const r = runClassroom(preset('hard'));
    expect(r.points.length).toBe(1000);
    expect(r.bias1.mean - 4 * r.bias1.se).toBeGreaterThan(0);
    expect(r.bias2.mean + 4 * r.bias2.se).toBeLessThan(0);
    expect(r.gap.mean - 4 * r.gap.se).toBeGreaterThan(0);
  });

  test('easy preset: both biases are small and the gap is much smaller than on hard questions', () => {
    const easy = runClassroom(preset('easy'));
    const hard = runClassroom(preset('hard'));
    expect(Math.abs(easy.bias1.mean)).toBeLessThan(0.02);
    expect(Math.abs(easy.bias2.mean)).toBeLessThan(0.02);
    expect(easy.gap.mean + 4 * easy.gap.se).toBeLessThan(hard.gap.mean - 4 * hard.gap.se);
  });

  test('Sem2-ECE < Sem1-ECE on the low-margin preset, beyond seed-to-seed variation', () => {
    const diffs = [1, 2, 3, 4, 5].map((seed) => {
      const r = runClassroom({ ...preset('sem2-better'), seed });
      return r.eceSem1 - r.eceSem2;
    });
    const d = meanSE(diffs);
    expect(d.mean - 3 * d.se).toBeGreaterThan(0);
  });

  test('the gap grows as the margin shrinks (difficulty meter)', () => {
    const r = runClassroom(preset('gap'));
    const low = r.byMargin.filter((b) => b.hi <= 0.15);
    const high = r.byMargin.filter((b) => b.lo >= 0.6);
    const gapOf = (bins: typeof low) => bins.reduce((s, b) => s + b.gap.mean * b.count, 0) / bins.reduce((s, b) => s + b.count, 0);
    expect(gapOf(low)).toBeGreaterThan(gapOf(high) + 0.05);
  });

  test('both biases shrink towards zero as n grows, from opposite sides', () => {
    const s = preset('converge');
    const small = convergenceAt(s, 8);
    const large = convergenceAt(s, 256);
    expect(small.bias1.mean).toBeGreaterThan(0);
    expect(small.bias2.mean).toBeLessThan(0);
    expect(Math.abs(large.bias1.mean)).toBeLessThan(Math.abs(small.bias1.mean) / 2);
    expect(Math.abs(large.bias2.mean)).toBeLessThan(Math.abs(small.bias2.mean) / 2);
    expect(large.eceStar).toBe(small.eceStar); // the same questions at every n
  });

  test('calibrated questions: ECE* is small; a fixed 50% accuracy on easy questions makes every ECE large', () => {
    const calibrated = runClassroom({ ...DEFAULT_SETTINGS, questions: 3000 });
    expect(calibrated.eceStar).toBeLessThan(0.05);
    const over = runClassroom(preset('overconfident'));
    expect(over.accuracy).toBeGreaterThan(0.4);
    expect(over.accuracy).toBeLessThan(0.6);
    expect(over.eceSem1).toBeGreaterThan(0.2);
    expect(over.eceSem2).toBeGreaterThan(0.2);
  });
});

describe('winner’s curse trace', () => {
  test('splits partition the samples and reproduce the core’s Sem2', () => {
    const r = runClassroom(preset('hard'));
    const h = hardestQuestion(r.simulated);
    const q = r.simulated[h];
    expect(q.piMargin).toBe(Math.min(...r.simulated.map((x) => x.piMargin)));
    const w = winnersCurse(q, 0.5);
    expect(w.steps.length).toBe(10);
    expect(w.sem2).toBe(sem2HeldOut(q.assignments, q.pi.length, { R: 10, seed: 0, selectionSize: (n) => Math.round(n / 2) }));
    expect(w.sem2).toBe(r.points[h].sem2);
    for (const step of w.steps) {
      expect([...step.selection, ...step.evaluation].sort((a, b) => a - b)).toEqual(Array.from({ length: q.n }, (_, i) => i));
      expect(step.selection.length).toBe(q.n / 2);
      const z = step.selectionCounts.indexOf(Math.max(...step.selectionCounts));
      expect(step.z).toBe(z);
      expect(step.hits).toBe(step.evaluation.filter((i) => q.assignments[i] === z).length);
    }
    expect(w.steps[9].runningSem2).toBeCloseTo(w.sem2, 12);
  });
});

test('settings are clamped into the offered ranges', () => {
  const s = normalizeSettings({ ...DEFAULT_SETTINGS, questions: 1e9, n: -3, selection: 2, marginLow: 0.9, marginHigh: 0.1, seed: NaN, accuracy: 7 });
  expect(s).toMatchObject({ questions: 5000, n: 2, selection: 0.9, marginLow: 0.1, marginHigh: 0.9, seed: 1, accuracy: 1 });
});

test('computing in slices gives exactly the one-go result, and stops when cancelled', async () => {
  const settings = { ...DEFAULT_SETTINGS, questions: 300, n: 30 };
  const sliced = await runClassroomInSlices(settings, new AbortController().signal, 1000);
  expect(sliced).toEqual(runClassroom(settings));
  // Aborted while it runs: between slices, after the first has yielded.
  const controller = new AbortController();
  const running = runClassroomInSlices(settings, controller.signal, 1000);
  controller.abort();
  expect(await running).toBeNull();
});

test('the convergence sweep stops at the point its signal is aborted', async () => {
  const settings = { ...DEFAULT_SETTINGS, questions: 20 };
  const controller = new AbortController();
  const points: number[] = [];
  await convergenceSweep(settings, (p) => (points.push(p.n), points.length === 2 && controller.abort()), controller.signal, [2, 4, 8, 16]);
  expect(points).toEqual([2, 4]);
});
