import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { MockProviderServer, type ParsedRequest } from '../../mock/provider-server';
import { createProvider } from '../../../src/providers/create-provider';
import { createJudgeClusterer } from '../../../src/clustering/judge-clusterer';
import { classesToRowFields } from '../../../src/clustering/row-fields';

let mock: MockProviderServer;
/** Replies the mock gives, one per request, in order; and the requests it saw. */
let script: string[] = [];
let seen: ParsedRequest[] = [];

beforeAll(async () => {
  mock = await MockProviderServer.start({ apiKey: 'mock-key' });
  mock.responder = (req) => {
    seen.push(req);
    return script.shift() ?? 'script exhausted';
  };
});
afterAll(async () => {
  await mock?.close();
});
beforeEach(() => {
  script = [];
  seen = [];
});

const judge = (retries = 2) =>
  createJudgeClusterer({
    provider: createProvider({ kind: 'openai', preset: 'openai', baseUrl: `${mock.url}/v1`, model: 'judge-model', apiKey: 'mock-key', maxRetries: 0 }),
    retries,
  });

// Distinct texts in first-appearance order: [0] Paris, [1] Lyon, [2] paris, [3] City of Paris
const answers = ['Paris', 'Lyon', 'Paris', 'paris', 'City of Paris', 'Lyon'];
const good = '{"clusters":[{"label":"Paris","members":[0,2,3]},{"label":"Lyon","members":[1]}]}';

describe('LLM-judge clusterer against the loopback mock', () => {
  test('valid reply: one call, temperature 0, JSON mode, deduplicated list, classes expanded back', async () => {
    script = [good];
    const r = await judge().cluster('Capital of France?', answers);
    expect(r).toMatchObject({ ok: true, calls: 1, value: [{ label: 'Paris', members: [0, 2, 3, 4] }, { label: 'Lyon', members: [1, 5] }] });
    expect(r.usage!.inputTokens).toBeGreaterThan(0);
    expect(r.usage!.outputTokens).toBeGreaterThan(0);
    expect(seen).toHaveLength(1);
    expect(seen[0].temperature).toBe(0);
    expect(seen[0].json).toBe(true);
    expect(seen[0].user).toContain('"answers":[{"index":0,"text":"Paris"},{"index":1,"text":"Lyon"},{"index":2,"text":"paris"},{"index":3,"text":"City of Paris"}]');
    expect(seen[0].user).not.toContain('"index":4');
    if (r.ok) expect(classesToRowFields(r.value, answers.length).cluster_assignments).toEqual([0, 1, 0, 0, 0, 1]);
  });

  test('fenced reply with prose around it', async () => {
    script = [`Here is the grouping:\n\`\`\`json\n${good}\n\`\`\`\nHope this helps!`];
    expect(await judge().cluster('q', answers)).toMatchObject({ ok: true, calls: 1 });
  });

  test('cut-off reply whose complete part covers every index is repaired', async () => {
    script = ['{"clusters":[{"label":"Paris","members":[0,2,3]},{"label":"Lyon","members":[1]},{"label":"Ly'];
    expect(await judge().cluster('q', answers)).toMatchObject({ ok: true, calls: 1, value: [{ label: 'Paris' }, { label: 'Lyon' }] });
  });

  test('cut-off reply that loses an index is retried with the reason, then accepted', async () => {
    script = ['{"clusters":[{"label":"Paris","members":[0,2]},{"label":"Lyon","members":[1,', good];
    const r = await judge().cluster('q', answers);
    expect(r).toMatchObject({ ok: true, calls: 2 });
    expect(seen[1].messages.length).toBeGreaterThan(seen[0].messages.length);
    expect(seen[1].user).toMatch(/cut off.*indices missing: 1, 3/);
  });

  test.each([
    ['missing index', '{"clusters":[{"label":"Paris","members":[0,2]},{"label":"Lyon","members":[1]}]}', /indices missing: 3/],
    ['duplicate index', '{"clusters":[{"label":"Paris","members":[0,2,3]},{"label":"Lyon","members":[1,3]}]}', /more than once: 3/],
    ['out of range', '{"clusters":[{"label":"Paris","members":[0,2,3,4]},{"label":"Lyon","members":[1]}]}', /out of range 0..3: 4/],
    ['empty label', '{"clusters":[{"label":"","members":[0,2,3]},{"label":"Lyon","members":[1]}]}', /cluster 0 has no label/],
    ['refusal', "I'm sorry, but I can't help with grouping these answers.", /no complete JSON object/],
  ])('%s on every attempt: the question fails with its reason after the retries', async (_name, reply, reason) => {
    script = [reply, reply, reply];
    const r = await judge(2).cluster('q', answers);
    expect(r.ok).toBe(false);
    expect(r.calls).toBe(3);
    if (!r.ok) {
      expect(r.error.message).toMatch(reason);
      expect(r.error.message).toMatch(/after 3 attempts/);
      expect(r.error.kind).toMatch(/^judge-/);
    }
    // The retries are varied requests: each repeats the faulty reply and the reason.
    expect(seen[2].messages.at(-2)).toEqual({ role: 'assistant', content: reply });
    expect(r.usage!.inputTokens).toBeGreaterThan(0);
  });

  test('a wrong partition, then a valid one', async () => {
    script = ['{"clusters":[{"label":"all","members":[0,1,2]}]}', good];
    const r = await judge().cluster('q', answers);
    expect(r).toMatchObject({ ok: true, calls: 2 });
  });

  test('provider errors fail the question with a typed error and no key in it', async () => {
    const bad = createJudgeClusterer({
      provider: createProvider({ kind: 'openai', preset: 'openai', baseUrl: `${mock.url}/v1`, model: 'judge-model', apiKey: 'wrong-secret-key', maxRetries: 0 }),
      retries: 1,
    });
    const r = await bad.cluster('q', answers);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.kind).toBe('auth');
      expect(r.calls).toBe(1);
      expect(r.error.message).not.toContain('wrong-secret-key');
    }
  });

  test('a single distinct answer needs no call', async () => {
    const r = await judge().cluster('q', ['Paris', 'Paris ', 'Paris']);
    expect(r).toEqual({ ok: true, value: [{ label: 'Paris', members: [0, 1, 2] }], usage: { inputTokens: 0, outputTokens: 0 }, calls: 0 });
    expect(seen).toHaveLength(0);
  });
});
