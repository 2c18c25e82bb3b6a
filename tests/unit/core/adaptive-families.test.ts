import { expect, test } from 'vitest';
import { ADAPTIVE_FAMILIES, familySpecs } from '../../../src/core/adaptive-families';
import { checkQuestionSpec } from '../../../src/core/simulate';
import { defaultRng } from '../../../src/core/rng';

test('every family gives valid, seeded question specs', () => {
  for (const { id } of ADAPTIVE_FAMILIES) {
    const specs = familySpecs(id, 300, defaultRng(1));
    expect(specs).toHaveLength(300);
    for (const s of specs) expect(checkQuestionSpec(s)).toBeNull();
    expect(familySpecs(id, 300, defaultRng(1))).toEqual(specs);
  }
});

test('the mixes have the stated shapes: easy questions (c, (1−c)/3 ×3) with c in range, split ones from Dirichlet(5)', () => {
  const top = (pi: number[]) => Math.max(...pi);
  const easyHard = familySpecs('easy-hard-mix', 4000, defaultRng(2));
  const easy = easyHard.filter((s) => Math.abs(s.pi[1] - s.pi[2]) < 1e-9 && Math.abs(s.pi[2] - s.pi[3]) < 1e-9);
  expect(easy.length / easyHard.length).toBeGreaterThan(0.47);
  expect(easy.length / easyHard.length).toBeLessThan(0.53);
  for (const s of easy) {
    expect(s.pi[0]).toBeGreaterThanOrEqual(0.85 - 1e-12);
    expect(s.pi[0]).toBeLessThan(0.99 + 1e-12);
    expect(s.pi[1]).toBeCloseTo((1 - s.pi[0]) / 3, 12);
  }
  const nearCertain = familySpecs('near-certain-mix', 4000, defaultRng(3)).filter((s) => top(s.pi) >= 0.97);
  expect(nearCertain.length / 4000).toBeGreaterThan(0.77);
  expect(nearCertain.length / 4000).toBeLessThan(0.83);
  // Calibrated: the correct class is drawn from π, so accuracy of the favourite ≈ mean top probability.
  const specs = familySpecs('easy-hard-mix', 20_000, defaultRng(4));
  const favouriteRight = specs.filter((s) => s.correct[0] === s.pi.indexOf(top(s.pi))).length / specs.length;
  const meanTop = specs.reduce((a, s) => a + top(s.pi), 0) / specs.length;
  expect(Math.abs(favouriteRight - meanTop)).toBeLessThan(0.015);
});
