import { expect, test } from 'vitest';
import Legend from '../../../../src/ui/charts/Legend.svelte';
import { markerPath } from '../../../../src/ui/charts/signal-styles';
import { all, draw } from './svg-markup';

test('legend keys draw what the chart draws: a marker of the signal’s shape, a ring, a curve in its dash pattern', () => {
  const root = draw(Legend, {
    items: [
      { label: 'Sem2', color: 'var(--series-sem2)', shape: 'square' },
      { label: 'graded incorrect', color: 'var(--series-sem1)', mark: 'ring' },
      { label: 'Verbalized', color: 'var(--series-verbalized)', mark: 'line', dasharray: '2 3' },
      { label: 'Sem1', color: 'var(--series-sem1)', mark: 'line' },
      { label: 'plain', color: 'red' },
    ],
  });
  const [square, ring] = all(root, 'path');
  expect(square.attrs.d).toBe(markerPath('square', 50));
  expect(square.attrs.fill).toBe('var(--series-sem2)');
  expect([ring.attrs.fill, ring.attrs.stroke]).toEqual(['none', 'var(--series-sem1)']);
  const lines = all(root, 'line');
  expect(lines.map((l) => [l.attrs.stroke, l.attrs['stroke-dasharray']])).toEqual([
    ['var(--series-verbalized)', '2 3'],
    ['var(--series-sem1)', undefined],
  ]);
  // Decoration only: the label says what the key is.
  for (const svg of all(root, 'svg')) expect(svg.attrs['aria-hidden']).toBe('true');
  expect(all(root, 'span', 'swatch')).toHaveLength(1);
});
