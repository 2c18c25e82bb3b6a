import { expect, test } from 'vitest';
import { DEFAULT_PRICES } from '../../../../src/model/cost';
import { UserPrices } from '../../../../src/ui/state/prices.svelte';

test('the defaults at once, the stored table once read; a table that cannot be read leaves the defaults', async () => {
  const stored = { 'openai/m': { input: 1, output: 2 } };
  const read = new UserPrices(async () => ({ ok: true, value: stored }));
  expect(read.table).toEqual(DEFAULT_PRICES);
  await new Promise((r) => setTimeout(r, 0));
  expect(read.table).toEqual(stored);
  const broken = new UserPrices(async () => Promise.reject(new Error('no database')));
  const refused = new UserPrices(async () => ({ ok: false }));
  await new Promise((r) => setTimeout(r, 0));
  expect(broken.table).toEqual(DEFAULT_PRICES);
  expect(refused.table).toEqual(DEFAULT_PRICES);
});
