/**
 * The abstention's shared sort (descendingOrder, a counting sort) and the one order per signal that
 * abstention-metrics.ts hands to the threshold and to every split give what the straightforward
 * comparator sort per call gives, on random columns with many ties and both zeros.
 */
import { describe, expect, test } from 'vitest';
import { abstention, abstentionSpread, descendingOrder } from '../../../src/core/abstention';
import { defaultRng } from '../../../src/core/rng';
import { abstentionEntry } from '../../../src/pipeline/abstention-metrics';

const rng = defaultRng(21);
const column = (n: number, distinct: number) =>
  Float64Array.from({ length: n }, () => (rng.random() < 0.05 ? (rng.random() < 0.5 ? -0 : 0) : Math.floor(rng.random() * distinct) / distinct));

describe('abstention with one shared order', () => {
  test.each([[500, 7], [3000, 50], [2000, 1e9]])('descendingOrder of %i rows with %i distinct values is the comparator sort', (n, distinct) => {
    const conf = column(n, distinct);
    const want = Int32Array.from({ length: n }, (_, i) => i).sort((a, b) => conf[b] - conf[a] || a - b);
    expect(descendingOrder(conf)).toEqual(want);
  });

  test.each([11, 12, 13])('abstentionEntry equals abstention and abstentionSpread each sorting for itself (seed %i)', (seed) => {
    const n = 1500;
    const conf = column(n, 40);
    const y = Float64Array.from(conf, (c) => (rng.random() < 0.2 + 0.75 * c ? 1 : 0));
    const declined = Uint8Array.from(y, (v) => (v === 0 && rng.random() < 0.1 ? 1 : 0));
    const got = abstentionEntry({ conf, y, declined }, 0.15, seed);
    expect(got.result).toStrictEqual(abstention(conf, y, { target: 0.15, seed, declined }));
    expect(got.spread).toStrictEqual(abstentionSpread(conf, y, { target: 0.15, seed }));
  });
});
