import { describe, expect, it } from 'vitest';
import { SampleRequestSet } from '../../../src/batch/request-set.ts';
import { ingestSampleResults } from '../../../src/batch/ingest.ts';
import { parseResultLine } from '../../../src/batch/result-lines.ts';
import { MemorySampleCache } from '../../../src/model/sample-cache.ts';
import { readSamples } from '../../../src/pipeline/sampling.ts';
import { extractSample } from '../../../src/pipeline/extract.ts';
import { MODELS, QUESTIONS, SETTINGS, errorLine, reply, successLine } from './fixtures.ts';

const N = 4;

async function setup(api: keyof typeof MODELS) {
  const r = await SampleRequestSet.create({ model: MODELS[api], settings: SETTINGS, n: N, questions: QUESTIONS });
  if (!r.ok) throw new Error(r.error.message);
  const plan = [];
  for await (const p of r.value.requests(new MemorySampleCache())) plan.push(p);
  return { set: r.value, plan };
}

describe('ingestSampleResults', () => {
  for (const api of ['openai', 'anthropic', 'gemini'] as const) {
    it(`${api}: every reply lands under the key interactive sampling reads`, async () => {
      const { set, plan } = await setup(api);
      const lines = plan.map((p) => successLine(api, p.customId, Array.from({ length: p.count }, (_, j) => reply(`${p.questionId}-${p.first + j}`))));
      // Results may come in any order.
      lines.reverse();
      const cache = new MemorySampleCache();
      const report = await ingestSampleResults(set, lines.join('\n') + '\n', { file: 'out.jsonl', cache });
      expect(report.problems).toEqual([]);
      expect(report.stored).toBe(QUESTIONS.length * N);
      const stored = await readSamples({ questions: QUESTIONS, provider: { config: MODELS[api] } as never, settings: SETTINGS, n: N, cache });
      stored.forEach((samples, qi) => samples.forEach((s, i) => expect(s?.answer).toBe(`${QUESTIONS[qi].id}-${i}`)));
      expect(stored[0][0]).toEqual(extractSample(reply('q1-0'), api === 'openai' ? 'stop' : api === 'anthropic' ? 'end_turn' : 'STOP'));
    });
  }

  it('reports each bad line with file, line and cause, and stores the good ones', async () => {
    const { set, plan } = await setup('openai');
    const [a, b, c] = plan;
    const other = await SampleRequestSet.create({ model: MODELS.openai, settings: { ...SETTINGS, maxTokens: 99 }, n: N, questions: QUESTIONS });
    if (!other.ok) throw new Error('unexpected');
    const foreign = [];
    for await (const p of other.value.requests(new MemorySampleCache())) foreign.push(p);
    const text = [
      successLine('openai', a.customId, [reply('x'), reply('y'), reply('z'), reply('w')]),
      '{"custom_id": "half',
      successLine('openai', 'my-own-id', [reply('x')]),
      successLine('openai', a.customId, [reply('again')]),
      errorLine('openai', b.customId, 'server exploded'),
      JSON.stringify({ custom_id: c.customId, response: { status_code: 200, body: { choices: [] } }, error: null }),
      successLine('openai', foreign[0].customId, [reply('x')]),
      '',
    ].join('\n');
    const cache = new MemorySampleCache();
    const r = await ingestSampleResults(set, text, { file: 'results.jsonl', cache });
    expect(r.stored).toBe(4);
    expect(r.problems.map((p) => [p.line, p.kind])).toEqual([
      [2, 'bad-json'], [3, 'unknown-id'], [4, 'duplicate-id'], [5, 'error-line'], [6, 'missing-choices'], [7, 'foreign-id'],
    ]);
    expect(r.problems.every((p) => p.file === 'results.jsonl')).toBe(true);
    expect(r.problems[3].message).toContain('server exploded');
    expect(r.failed.map((f) => [f.questionId, f.indices.length])).toEqual([['q2', 4], ['q3', 4]]);
    const stored = await readSamples({ questions: QUESTIONS, provider: { config: MODELS.openai } as never, settings: SETTINGS, n: N, cache });
    expect(stored[0].map((s) => s?.answer)).toEqual(['x', 'y', 'z', 'w']);
    expect(stored[1].every((s) => s === undefined)).toBe(true);
  });

  it('keeps what the cache already holds and counts fewer replies than asked as a shortfall', async () => {
    const { set, plan } = await setup('openai');
    const cache = new MemorySampleCache();
    const keys = await set.keysOf(QUESTIONS[0]);
    await cache.put([{ key: keys[0], sample: extractSample(reply('interactive')) }]);
    const r = await ingestSampleResults(set, successLine('openai', plan[0].customId, [reply('a'), reply('b')]), { file: 'f', cache });
    expect(r).toMatchObject({ stored: 1, alreadyCached: 1, shortfall: 2 });
    expect((await cache.get(keys)).map((s) => s?.answer)).toEqual(['interactive', 'b', undefined, undefined]);
  });

  it('marks Anthropic expired and canceled results as failures, expired ones as such', () => {
    const exp = parseResultLine('anthropic', JSON.stringify({ custom_id: 'a', result: { type: 'expired' } }));
    expect(exp).toEqual({ outcome: expect.objectContaining({ ok: false, expired: true }) });
    const can = parseResultLine('anthropic', JSON.stringify({ custom_id: 'a', result: { type: 'canceled' } }));
    expect(can).toEqual({ outcome: expect.objectContaining({ ok: false, expired: false }) });
    const oe = parseResultLine('openai', JSON.stringify({ custom_id: 'a', response: null, error: { code: 'batch_expired', message: 'This request could not be executed before the completion window expired.' } }));
    expect(oe).toEqual({ outcome: expect.objectContaining({ ok: false, expired: true }) });
    expect(parseResultLine('gemini', '[1,2]')).toEqual({ problem: expect.objectContaining({ kind: 'bad-shape' }) });
  });
});
