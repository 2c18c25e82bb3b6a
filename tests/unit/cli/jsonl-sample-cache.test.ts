import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { JsonlSampleCache } from '../../../cli/jsonl-sample-cache';
import type { Sample } from '../../../src/model/rows';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'semece-cache-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const entry = (i: number): { key: string; sample: Sample } => ({
  key: `k${i}`,
  sample: { raw: `Answer: ${i}`, answer: String(i), answerMethod: 'answer-line', confidence: null, confidenceMethod: 'missing', finishReason: 'stop' },
});
const line = (i: number) => JSON.stringify(entry(i));

describe('JsonlSampleCache', () => {
  it('drops a torn last line once: the file is rewritten without it, the next load is clean, appends start on their own line', async () => {
    const file = join(dir, 'c.jsonl');
    await writeFile(file, `${line(0)}\n${line(1)}\n${line(2).slice(0, 25)}`);
    const first = await new JsonlSampleCache(file).load();
    expect(first.damagedLines).toBe(1);
    expect(first.size).toBe(2);
    expect(await readFile(file, 'utf8')).toBe(`${line(0)}\n${line(1)}\n`);

    const second = await new JsonlSampleCache(file).load();
    expect(second.damagedLines).toBe(0);
    await second.put([entry(2)]);
    const third = await new JsonlSampleCache(file).load();
    expect(third.damagedLines).toBe(0);
    expect(await third.get(['k0', 'k1', 'k2'])).toEqual([entry(0).sample, entry(1).sample, entry(2).sample]);
  });

  it('a complete last line without its newline gets one, so the next append is not glued to it', async () => {
    const file = join(dir, 'c.jsonl');
    await writeFile(file, `${line(0)}\n${line(1)}`);
    const cache = await new JsonlSampleCache(file).load();
    expect(cache.damagedLines).toBe(0);
    await cache.put([entry(2)]);
    const again = await new JsonlSampleCache(file).load();
    expect(again.damagedLines).toBe(0);
    expect(again.size).toBe(3);
  });

  it('a clean file is not rewritten', async () => {
    const file = join(dir, 'c.jsonl');
    const text = `${line(0)}\n${line(0)}\n`;
    await writeFile(file, text);
    const before = await stat(file);
    const cache = await new JsonlSampleCache(file).load();
    expect(cache.size).toBe(1);
    // A rewrite renames a new file over it: a new inode.
    expect((await stat(file)).ino).toBe(before.ino);
    expect(await readFile(file, 'utf8')).toBe(text);
  });

  it('keeps whole records it cannot use (a judge cache pointed at the same file): only torn lines go', async () => {
    const file = join(dir, 'c.jsonl');
    const foreign = JSON.stringify({ key: 'c1:abc', classes: [{ label: 'x', members: [0] }] });
    await writeFile(file, `${line(0)}\n${foreign}\n${line(1).slice(0, 9)}`);
    const cache = await new JsonlSampleCache(file).load();
    expect(cache.damagedLines).toBe(1);
    expect(cache.size).toBe(1);
    expect(await readFile(file, 'utf8')).toBe(`${line(0)}\n${foreign}\n`);
  });

  it('writes one line per question, reads the one-sample lines of earlier versions beside them, and keeps the first stored reply on putMissing', async () => {
    const file = join(dir, 'c.jsonl');
    const sample = (answer: string): Sample => ({ ...entry(0).sample, raw: `Answer: ${answer}`, answer });
    // A cache written before the by-question lines: one sample per line, keys `<base>#<index>`.
    await writeFile(file, `${JSON.stringify({ key: 's1:q#0', sample: sample('old0') })}\n${JSON.stringify({ key: 's1:q#1', sample: sample('old1') })}\n`);
    const cache = await new JsonlSampleCache(file).load();
    expect(cache.size).toBe(2);
    expect(await cache.putMissing([0, 1, 2, 3].map((i) => ({ key: `s1:q#${i}`, sample: sample(`new${i}`) })).concat([{ key: 's1:r#0', sample: sample('r0') }]))).toBe(3);
    const text = (await readFile(file, 'utf8')).trim().split('\n');
    // Two lines as they were, then one line per question of the write.
    expect(text).toHaveLength(4);
    expect(JSON.parse(text[2])).toEqual({ key: 's1:q', samples: { 2: sample('new2'), 3: sample('new3') } });
    const again = await new JsonlSampleCache(file).load();
    expect(again.size).toBe(5);
    expect((await again.getQuestions(['s1:q', 's1:r', 's1:none'], 5)).map((q) => q.map((s) => s?.answer))).toEqual([
      ['old0', 'old1', 'new2', 'new3', undefined],
      ['r0', undefined, undefined, undefined, undefined],
      [undefined, undefined, undefined, undefined, undefined],
    ]);
    expect(await again.storedIndices(['s1:q'], 5)).toEqual([[true, true, true, true, false]]);
    // put replaces (a later line wins), as the sampler's put always did.
    await again.put([{ key: 's1:q#0', sample: sample('replaced') }]);
    expect((await (await new JsonlSampleCache(file).load()).get(['s1:q#0']))[0]?.answer).toBe('replaced');
  });
});

describe('JsonlSampleCache keeps an index, not the samples', () => {
  const sample = (raw: string): Sample => ({ raw, answer: raw, answerMethod: 'answer-line', confidence: null, confidenceMethod: 'missing', finishReason: 'stop' });

  it('reads back multi-byte replies across the read stream’s chunk boundaries, from the same cache and a reloaded one', async () => {
    const file = join(dir, 'c.jsonl');
    const cache = await new JsonlSampleCache(file).load();
    // 300 questions of about 1 KB each with 2- to 4-byte characters: offsets are in bytes, and
    // lines straddle the 64 KB chunks the file is read in.
    const raw = (q: number, i: number) => `Zürich ${q}/${i} — 東京 🚀 ${'é'.repeat((q * 7 + i) % 200)}`;
    for (let from = 0; from < 300; from += 100) {
      const entries = [];
      for (let q = from; q < from + 100; q++) for (let i = 0; i < 3; i++) entries.push({ key: `s1:q${q}#${i}`, sample: sample(raw(q, i)) });
      await cache.put(entries);
    }
    expect((await stat(file)).size).toBeGreaterThan(3 * 65_536);
    const bases = Array.from({ length: 300 }, (_, q) => `s1:q${q}`);
    const expected = bases.map((_, q) => [0, 1, 2].map((i) => raw(q, i)));
    expect((await cache.getQuestions(bases, 3)).map((qs) => qs.map((s) => s?.raw))).toEqual(expected);
    const again = await new JsonlSampleCache(file).load();
    expect(again.size).toBe(900);
    expect((await again.getQuestions(bases, 3)).map((qs) => qs.map((s) => s?.raw))).toEqual(expected);
    expect((await again.get(['s1:q299#2', 's1:q0#0', 's1:q5#9'])).map((s) => s?.raw)).toEqual([raw(299, 2), raw(0, 0), undefined]);
  });

  it('a file another program shortened after loading is named in the error, not read as missing samples', async () => {
    const file = join(dir, 'c.jsonl');
    const cache = await new JsonlSampleCache(file).load();
    await cache.put([{ key: 's1:q#0', sample: sample('kept on disk') }]);
    await writeFile(file, '');
    await expect(cache.get(['s1:q#0'])).rejects.toThrow(/c\.jsonl is shorter than when it was read/);
  });
});
