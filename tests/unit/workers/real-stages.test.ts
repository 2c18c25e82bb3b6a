/** The run's wiring of the entailment clusterer: the run's NLI model and the stores' cache reach it. */
import { describe, expect, test } from 'vitest';
import { clustererFor } from '../../../src/workers/real-stages';
import { MemoryEntailmentCache } from '../../mock/memory-entailment-cache';
import type { EntailmentDecider } from '../../../src/clustering/entailment';

const score = () => {
  throw new Error('not scored here');
};

describe('clustererFor: entailment', () => {
  test('builds the entailment clusterer over the run\'s NLI model, with the cache', async () => {
    const asked: { model: string; allowRemote: boolean }[] = [];
    let calls = 0;
    const decider: EntailmentDecider = {
      model: 'tiny-nli',
      identity: async () => 'sha256:fake',
      async decide(pairs) {
        calls++;
        return pairs.map((p) => (p.premise.includes('Paris') === p.hypothesis.includes('Paris') ? 'entailment' : 'contradiction'));
      },
    };
    const cache = new MemoryEntailmentCache();
    const options = { score, decider: (spec: { model: string; allowRemote: boolean }) => (asked.push(spec), decider), entailmentCache: cache };
    const clusterer = clustererFor({ method: 'entailment', model: 'tiny-nli', allowRemote: false }, {}, options);
    expect(clusterer.method).toBe('entailment');
    expect(asked).toEqual([{ model: 'tiny-nli', allowRemote: false }]);
    const r = await clusterer.cluster('Capital of France?', ['Paris', 'Lyon', 'Paris, France']);
    expect(r).toEqual({ ok: true, value: [{ label: 'Paris', members: [0, 2] }, { label: 'Lyon', members: [1] }] });
    expect(cache.size).toBeGreaterThan(0);
    const before = calls;
    await clustererFor({ method: 'entailment', model: 'tiny-nli' }, {}, options).cluster('Capital of France?', ['Paris', 'Lyon', 'Paris, France']);
    expect(calls).toBe(before);
  });

  test('without an NLI model here, every question says so', async () => {
    const r = await clustererFor({ method: 'entailment', model: 'tiny-nli' }, {}, { score }).cluster('q', ['a', 'b']);
    expect(r).toEqual({ ok: false, error: { kind: 'unavailable', message: 'Entailment cannot be computed here; choose exact match or the judge.' } });
  });
});
