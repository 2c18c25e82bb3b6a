import { describe, expect, test } from 'vitest';
import { nextMarkIndex, readingOrder, textScale } from '../../../../src/ui/charts/chart-keys';

describe('nextMarkIndex', () => {
  test('arrows step one mark and stop at the ends; Home and End jump; Page keys step ten', () => {
    expect(nextMarkIndex('ArrowRight', 0, 5)).toBe(1);
    expect(nextMarkIndex('ArrowDown', 3, 5)).toBe(4);
    expect(nextMarkIndex('ArrowRight', 4, 5)).toBe(4);
    expect(nextMarkIndex('ArrowLeft', 0, 5)).toBe(0);
    expect(nextMarkIndex('ArrowUp', 2, 5)).toBe(1);
    expect(nextMarkIndex('Home', 3, 5)).toBe(0);
    expect(nextMarkIndex('End', 0, 5)).toBe(4);
    expect(nextMarkIndex('PageDown', 0, 25)).toBe(10);
    expect(nextMarkIndex('PageDown', 20, 25)).toBe(24);
    expect(nextMarkIndex('PageUp', 5, 25)).toBe(0);
  });
  test('other keys, and a chart without marks, move nothing', () => {
    expect(nextMarkIndex('Tab', 0, 5)).toBeNull();
    expect(nextMarkIndex('a', 0, 5)).toBeNull();
    expect(nextMarkIndex('ArrowRight', 0, 0)).toBeNull();
  });
});

test('reading order: left to right, then top to bottom at one x, ties in document order', () => {
  expect(readingOrder([{ x: 30, y: 0 }, { x: 10, y: 5 }, { x: 10, y: 1 }, { x: 20, y: 0 }, { x: 20, y: 0 }])).toEqual([2, 1, 3, 4, 0]);
  expect(readingOrder([])).toEqual([]);
});

test('text scale: the factor that keeps text at its set size when the SVG is shown narrower than its viewBox', () => {
  expect(textScale(440, 330)).toBeCloseTo(440 / 330, 12);
  expect(textScale(440, 880)).toBe(1);
  expect(textScale(440, 0)).toBe(1);
  expect(textScale(440, Number.NaN)).toBe(1);
});
