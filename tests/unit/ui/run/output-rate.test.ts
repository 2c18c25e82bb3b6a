import { expect, test } from 'vitest';
import { outputRate } from '../../../../src/ui/run/output-rate';

test('tokens out per second: from the first update seen while sampling, kept once sampling is over', () => {
  let t = 0;
  const rate = outputRate(() => t);
  const at = (stage: 'sample' | 'cluster', output: number) => ({ stage, tokens: { input: 0, output } });
  expect(rate.update(at('sample', 100), 'running')).toBeNull();
  t = 2000;
  expect(rate.update(at('sample', 100), 'running')).toBeNull();
  t = 4000;
  expect(rate.update(at('sample', 500), 'running')).toBe(100);
  t = 5000;
  expect(rate.update(at('cluster', 500), 'running')).toBe(100);
  expect(rate.update(at('sample', 900), 'paused')).toBe(100);
});
