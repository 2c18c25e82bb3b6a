import { describe, expect, it } from 'vitest';
import { SampleRequestSet } from '../../../src/batch/request-set.ts';
import { decodeCustomId } from '../../../src/batch/custom-id.ts';
import { MemorySampleCache } from '../../../src/model/sample-cache.ts';
import { questionKeys } from '../../../src/pipeline/sampling.ts';
import { extractSample } from '../../../src/pipeline/extract.ts';
import { DEFAULT_GENERATION_PROMPT } from '../../../src/pipeline/prompts.ts';
import { MODELS, QUESTIONS, SETTINGS } from './fixtures.ts';

async function planOf(set: SampleRequestSet, cache = new MemorySampleCache()) {
  const out = [];
  for await (const r of set.requests(cache)) out.push(r);
  return out;
}

async function make(api: keyof typeof MODELS, n = 10) {
  const r = await SampleRequestSet.create({ model: MODELS[api], settings: SETTINGS, n, questions: QUESTIONS });
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

describe('SampleRequestSet', () => {
  it('derives the same sample keys as interactive sampling, for any slice', async () => {
    const set = await make('openai');
    const full = await questionKeys({ config: MODELS.openai }, SETTINGS, DEFAULT_GENERATION_PROMPT, QUESTIONS[1], 10);
    expect(await set.keysOf(QUESTIONS[1])).toEqual(full);
    expect(await set.keysOf(QUESTIONS[1], 3, 4)).toEqual(full.slice(3, 7));
  });

  it('OpenAI: one request per question with n; the line is the chat body', async () => {
    const plan = await planOf(await make('openai'));
    expect(plan.map((p) => [p.questionId, p.first, p.count])).toEqual([['q1', 0, 10], ['q2', 0, 10], ['q3', 0, 10]]);
    const line = plan[0].line as { custom_id: string; method: string; url: string; body: Record<string, unknown> };
    expect(line.method).toBe('POST');
    expect(line.url).toBe('/v1/chat/completions');
    expect(line.body.n).toBe(10);
    expect(line.body.model).toBe('gpt-4o-mini');
    expect(JSON.stringify(line.body.messages)).toContain('capital of France');
    expect(line.custom_id).toBe(plan[0].customId);
  });

  it('Anthropic: one request per sample, ids within its 64-character alphabet', async () => {
    const plan = await planOf(await make('anthropic', 3));
    expect(plan).toHaveLength(9);
    for (const p of plan) {
      expect(p.customId).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
      expect(p.count).toBe(1);
      expect((p.line as { params: Record<string, unknown> }).params.n).toBeUndefined();
    }
  });

  it('Gemini 2.x: candidateCount up to 8 per request; the line is {key, request}', async () => {
    const plan = await planOf(await make('gemini', 10));
    expect(plan.filter((p) => p.questionId === 'q1').map((p) => [p.first, p.count])).toEqual([[0, 8], [8, 2]]);
    const line = plan[0].line as { key: string; request: { generationConfig: Record<string, unknown> } };
    expect(line.key).toBe(plan[0].customId);
    expect(line.request.generationConfig.candidateCount).toBe(8);
  });

  it('skips samples already in the cache, requesting only the missing runs', async () => {
    const set = await make('openai');
    const cache = new MemorySampleCache();
    const keys = await set.keysOf(QUESTIONS[0]);
    // indices 0-2 and 5 cached: runs 3-4 and 6-9 remain
    await cache.put([0, 1, 2, 5].map((i) => ({ key: keys[i], sample: extractSample('Answer: x\nConfidence: 50%') })));
    const allKeys2 = await set.keysOf(QUESTIONS[1]);
    await cache.put(allKeys2.map((key) => ({ key, sample: extractSample('Answer: y') })));
    const plan = await planOf(set, cache);
    expect(plan.map((p) => [p.questionId, p.first, p.count])).toEqual([['q1', 3, 2], ['q1', 6, 4], ['q3', 0, 10]]);
    expect(set.counts).toMatchObject({ questions: 3, samples: 30, cached: 14, requests: 3 });
  });

  it('custom ids decode to the question and indices, and foreign or unknown ids are told apart', async () => {
    const set = await make('openai');
    const [p] = await planOf(set);
    const at = set.locate(p.customId);
    expect(at).toMatchObject({ ok: true, first: 0, count: 10 });
    expect(decodeCustomId(p.customId)).toMatchObject({ kind: 'sample', first: 0, count: 10 });
    const other = await SampleRequestSet.create({ model: MODELS.openai, settings: { ...SETTINGS, temperature: 0.5 }, n: 10, questions: QUESTIONS });
    if (!other.ok) throw new Error('unexpected');
    expect(other.value.tag).not.toBe(set.tag);
    expect(other.value.locate(p.customId)).toMatchObject({ ok: false, kind: 'foreign-id' });
    expect(set.locate('request-1')).toMatchObject({ ok: false, kind: 'unknown-id' });
    const edited = await SampleRequestSet.create({ model: MODELS.openai, settings: SETTINGS, n: 10, questions: [{ ...QUESTIONS[0], question: 'What is the capital of Italy?' }] });
    if (!edited.ok) throw new Error('unexpected');
    expect(edited.value.locate(p.customId)).toMatchObject({ ok: false, kind: 'unknown-id' });
  });

  it('refuses a template without the question slot and a bad n', async () => {
    const a = await SampleRequestSet.create({ model: MODELS.openai, settings: SETTINGS, n: 5, questions: QUESTIONS, promptTemplate: 'no slot' });
    expect(a.ok).toBe(false);
    const b = await SampleRequestSet.create({ model: MODELS.openai, settings: SETTINGS, n: 0, questions: QUESTIONS });
    expect(b.ok).toBe(false);
  });
});
