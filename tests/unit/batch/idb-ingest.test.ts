/** Ingest into the IndexedDB sample cache (fake-indexeddb): one record per question, as the runner writes them. */
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
  it('stores every sample in its question\'s record, where interactive sampling looks', async () => {
    const made = await SampleRequestSet.create({ model: MODELS.gemini, settings: SETTINGS, n: 10, questions: QUESTIONS });
    if (!made.ok) throw new Error(made.error.message);
    const set = made.value;
    const lines: string[] = [];
    for await (const p of set.requests(new MemorySampleCache())) lines.push(successLine('gemini', p.customId, Array.from({ length: p.count }, (_, j) => reply(`a${p.first + j}`))));
    const db = await openSemeceDb(`batch-ingest-${Math.random()}`);
    const cache = new IdbSampleCache(db);
    const progress: number[] = [];
    const r = await ingestSampleResults(set, lines.join('\n'), { file: 'g.jsonl', cache, writeBatch: 7, onProgress: (p) => progress.push(p.stored) });
    expect(r.stored).toBe(30);
    expect(progress.at(-1)).toBe(30);
    expect(await db.count('questionSamples')).toBe(QUESTIONS.length);
    for (const q of QUESTIONS) {
      const base = await set.keyBase(q);
      expect((await cache.getQuestions([base], 10))[0].map((s) => s?.answer)).toEqual(Array.from({ length: 10 }, (_, i) => `a${i}`));
      expect((await cache.get(await set.keysOf(q))).map((s) => s?.answer)).toEqual(Array.from({ length: 10 }, (_, i) => `a${i}`));
    }
  });

  it('keeps a sample stored interactively (the first stored reply wins) and stores the rest of its question', async () => {
    const made = await SampleRequestSet.create({ model: MODELS.anthropic, settings: SETTINGS, n: 3, questions: QUESTIONS });
    if (!made.ok) throw new Error(made.error.message);
    const set = made.value;
    const lines: string[] = [];
    for await (const p of set.requests(new MemorySampleCache())) lines.push(successLine('anthropic', p.customId, [reply(`batch${p.first}`)]));
    const cache = new IdbSampleCache(await openSemeceDb(`batch-ingest-${Math.random()}`));
    const k1 = await set.keysOf(QUESTIONS[0]);
    await cache.put([{ key: k1[1], sample: extractSample(reply('interactive')) }]);
    await cache.flush();
    const r = await ingestSampleResults(set, lines.join('\n'), { file: 'a.jsonl', cache });
    expect(r).toMatchObject({ stored: 8, alreadyCached: 1 });
    expect((await cache.get(k1)).map((s) => s?.answer)).toEqual(['batch0', 'interactive', 'batch2']);
    // A second read of the same file stores nothing again.
    expect(await ingestSampleResults(set, lines.join('\n'), { file: 'a.jsonl', cache })).toMatchObject({ stored: 0, alreadyCached: 9 });
  });
});
