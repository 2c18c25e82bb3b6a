/**
 * The entailment cache over IndexedDB (fake-indexeddb): decisions found again after a reopen,
 * keyed by model, its identity and both texts in order (decisions stored before identities are misses), damaged records read as not cached; and the clusterer
 * over it asks the model nothing the second time.
 */
import 'fake-indexeddb/auto';
import { describe, expect, test } from 'vitest';
import { openStores } from '../../../src/store/stores';
import { entailmentRecordKey } from '../../../src/store/entailment-store';
import { createEntailmentClusterer, type EntailmentDecider } from '../../../src/clustering/entailment';
import type { NliLabel } from '../../../src/model/entailment-cache';

const name = () => `entailment-${Math.random()}`;

describe('IdbEntailmentCache', () => {
  test('stores decisions and finds them after a reopen; model and direction are part of the key', async () => {
    const db = name();
    const first = await openStores(db);
    await first.entailment.put([
      { model: 'm1', identity: 'i1', premise: 'Q? Paris', hypothesis: 'Q? Paris, France', label: 'entailment' },
      { model: 'm1', identity: 'i1', premise: 'Q? Paris', hypothesis: 'Q? Lyon', label: 'contradiction' },
    ]);
    await first.entailment.flush();
    first.db.close();
    const second = await openStores(db);
    const got = await second.entailment.get([
      { model: 'm1', identity: 'i1', premise: 'Q? Paris', hypothesis: 'Q? Paris, France' },
      { model: 'm1', identity: 'i1', premise: 'Q? Paris, France', hypothesis: 'Q? Paris' },
      { model: 'm2', identity: 'i1', premise: 'Q? Paris', hypothesis: 'Q? Paris, France' },
      { model: 'm1', identity: 'i1', premise: 'Q? Paris', hypothesis: 'Q? Lyon' },
      { model: 'm1', identity: 'i2', premise: 'Q? Paris', hypothesis: 'Q? Lyon' },
    ]);
    expect(got).toEqual(['entailment', undefined, undefined, 'contradiction', undefined]);
    const record = await second.db.get('entailment', await entailmentRecordKey({ model: 'm1', identity: 'i1', premise: 'Q? Paris', hypothesis: 'Q? Lyon' }));
    expect(record).toMatchObject({ label: 'contradiction' });
    expect(record?.key).toMatch(/^e2:[0-9a-f]{64}$/);
  });

  test('a record whose label is not an NLI label counts as not cached', async () => {
    const stores = await openStores(name());
    const key = { model: 'm', identity: 'i', premise: 'a', hypothesis: 'b' };
    await stores.db.put('entailment', { key: await entailmentRecordKey(key), label: 'ENTAILED?', storedAt: 0 });
    expect(await stores.entailment.get([key])).toEqual([undefined]);
  });

  test('a decision stored before identities (version 1 key: model and texts only) is a miss, never trusted', async () => {
    const stores = await openStores(name());
    const { sha256Hex } = await import('../../../src/model/hash');
    await stores.db.put('entailment', { key: `e1:${await sha256Hex('m\u0000a\u0000b')}`, label: 'entailment', storedAt: 0 });
    expect(await stores.entailment.get([{ model: 'm', identity: 'i', premise: 'a', hypothesis: 'b' }])).toEqual([undefined]);
  });

  test('a second clustering over the stored decisions asks the model nothing', async () => {
    const stores = await openStores(name());
    let calls = 0;
    const decider: EntailmentDecider = {
      model: 'fake',
      identity: async () => 'sha256:fake',
      async decide(pairs) {
        calls++;
        return pairs.map((p): NliLabel => (p.premise.replace(/\W/g, '').toLowerCase().includes('paris') === p.hypothesis.replace(/\W/g, '').toLowerCase().includes('paris') ? 'entailment' : 'neutral'));
      },
    };
    const clusterer = createEntailmentClusterer({ decider, cache: stores.entailment });
    const answers = ['Paris', 'Lyon', 'Paris, France', 'Marseille'];
    const first = await clusterer.cluster('Capital?', answers);
    expect(first.ok).toBe(true);
    const asked = calls;
    expect(asked).toBeGreaterThan(0);
    expect(await clusterer.cluster('Capital?', answers)).toEqual(first);
    expect(calls).toBe(asked);
  });
});
