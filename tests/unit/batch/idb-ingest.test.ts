/** Ingest into the IndexedDB sample cache (fake-indexeddb): the byQuestion index is filled as the runner fills it. */
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { ingestSampleResults } from '../../../src/batch/ingest.ts';
import { SampleRequestSet } from '../../../src/batch/request-set.ts';
import { MemorySampleCache } from '../../../src/model/sample-cache.ts';
import { extractSample } from '../../../src/pipeline/extract.ts';
import { openSemeceDb } from '../../../src/store/db.ts';
import { IdbSampleCache } from '../../../src/store/sample-store.ts';
import { MODELS, QUESTIONS, SETTINGS, reply, successLine } from './fixtures.ts';

describe('ingest into IdbSampleCache', () => {
  it('stores every sample and indexes it under its question group', async () => {
    const made = await SampleRequestSet.create({ model: MODELS.gemini, settings: SETTINGS, n: 10, questions: QUESTIONS });
    if (!made.ok) throw new Error(made.error.message);
    const set = made.value;
    const lines: string[] = [];
    for await (const p of set.requests(new MemorySampleCache())) lines.push(successLine('gemini', p.customId, Array.from({ length: p.count }, (_, j) => reply(`a${p.first + j}`))));
    const cache = new IdbSampleCache(await openSemeceDb(`batch-ingest-${Math.random()}`));
    const r = await ingestSampleResults(set, lines.join('\n'), { file: 'g.jsonl', cache, writeBatch: 7, describe: (keys, group) => cache.describe(keys, group) });
    await cache.flush();
    expect(r.stored).toBe(30);
    for (const q of QUESTIONS) {
      const keys = await set.keysOf(q);
      expect(await cache.countForQuestion(`${keys[0]}#q`)).toBe(10);
      expect((await cache.get(keys)).map((s) => s?.answer)).toEqual(Array.from({ length: 10 }, (_, i) => `a${i}`));
    }
  });

  it('with groupIsEmpty, skips lookups only for questions with nothing stored, and still keeps what is', async () => {
    const made = await SampleRequestSet.create({ model: MODELS.anthropic, settings: SETTINGS, n: 3, questions: QUESTIONS });
    if (!made.ok) throw new Error(made.error.message);
    const set = made.value;
    const lines: string[] = [];
    for await (const p of set.requests(new MemorySampleCache())) lines.push(successLine('anthropic', p.customId, [reply(`batch${p.first}`)]));
    const cache = new IdbSampleCache(await openSemeceDb(`batch-ingest-${Math.random()}`));
    const k1 = await set.keysOf(QUESTIONS[0]);
    cache.describe([k1[1]], `${k1[0]}#q`);
    await cache.put([{ key: k1[1], sample: extractSample(reply('interactive')) }]);
    const asked: string[] = [];
    const r = await ingestSampleResults(set, lines.join('\n'), {
      file: 'a.jsonl', cache, describe: (keys, group) => cache.describe(keys, group),
      groupIsEmpty: async (group) => (asked.push(group), (await cache.countForQuestion(group)) === 0),
    });
    expect(asked).toHaveLength(3);
    expect(r).toMatchObject({ stored: 8, alreadyCached: 1 });
    expect((await cache.get(k1)).map((s) => s?.answer)).toEqual(['batch0', 'interactive', 'batch2']);
  });
});
