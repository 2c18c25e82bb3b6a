/**
 * The classroom's adaptive lesson on simulated questions: the rule stops easy questions early and
 * takes split ones further; its Sem2 is unbiased for π(z), the true probability of the answer the
 * selection chose, while a rule that stops on the held-out samples themselves reads high.
 */
import { expect, test } from 'vitest';
import { adaptiveLesson } from '../../../../src/ui/classroom/adaptive-lesson';
import { questionSet } from '../../../../src/core/simulate-families';
import { defaultRng } from '../../../../src/core/rng';

test('easy questions stop early, split ones draw more; Sem2 is honest under the rule and high when the rule peeks', () => {
  const specs = questionSet({ count: 3000, difficulty: 'mixed', classes: 4 }, defaultRng(5));
  const lesson = adaptiveLesson(specs, 50, 11);
  expect(lesson.questions).toBe(3000);
  expect(lesson.fixed).toBe(150_000);
  expect(lesson.used).toBeLessThan(lesson.fixed);
  expect(lesson.bars.reduce((n, b) => n + b.count, 0)).toBe(3000);
  // Samples drawn fall as the true margin grows: the widest margins draw fewer than the narrowest.
  const first = lesson.byMargin[0];
  const last = lesson.byMargin.at(-1)!;
  expect(first.lo).toBe(0);
  expect(last.meanSamples).toBeLessThan(first.meanSamples);
  expect(last.stoppedEarly).toBeGreaterThan(first.stoppedEarly);
  expect(lesson.byMargin.reduce((n, g) => n + g.count, 0)).toBe(3000);
  // Honest: within 3 standard errors of 0. Peeking: more than 3 above it.
  expect(Math.abs(lesson.honest.mean)).toBeLessThan(3 * lesson.honest.se);
  expect(lesson.peeking.mean).toBeGreaterThan(3 * lesson.peeking.se);
  // Sem1 on a variable n keeps its same-sample bias: above c*.
  expect(lesson.sem1.mean).toBeGreaterThan(0);
});

test('the same seed gives the same lesson', () => {
  const specs = questionSet({ count: 200, difficulty: 'hard' }, defaultRng(1));
  expect(adaptiveLesson(specs, 20, 3)).toEqual(adaptiveLesson(specs, 20, 3));
});
