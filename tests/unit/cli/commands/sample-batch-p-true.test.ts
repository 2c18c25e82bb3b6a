/**
 * `semece sample --batch … --p-true`: p(True) through each provider's batch API on the loopback
 * mock, after the samples' batches. The values are the direct path's (`semece sample --p-true` on
 * a mock in the same state), the replies share its cache keys (a batch or a direct rerun sends
 * nothing), a stopped submit collects its p(True) batch instead of submitting again, and a bad
 * result line is named (file:line) while the good lines' replies are kept.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import run from '../../../../cli/commands/sample.ts';
import { MockProviderServer, type ParsedRequest } from '../../../mock/provider-server.ts';
import { successLine } from '../../batch/fixtures.ts';

const KEY = 'sk-batch-ptrue-key-24680';
const QS = [
  { id: 'fr', question: 'What is the capital of France?', answer: 'Paris' },
  { id: 'au', question: 'What is the capital of Australia?', answer: 'Canberra' },
];
const PROVIDERS = {
  openai: { args: ['--provider', 'openai', '--model', 'gpt-4o-mini'], path: '/v1', env: 'OPENAI_API_KEY' },
  anthropic: { args: ['--provider', 'anthropic', '--model', 'claude-haiku-4-5'], path: '/v1', env: 'ANTHROPIC_API_KEY' },
  gemini: { args: ['--provider', 'gemini', '--model', 'gemini-2.5-flash'], path: '/v1beta', env: 'GEMINI_API_KEY' },
};
type Api = keyof typeof PROVIDERS;

let dir: string;
const mocks: MockProviderServer[] = [];
let pTrueAsked = 0;

/**
 * p(True) replies: with logprobs (OpenAI's format carries them) P(True) 0.75 for France, 0.4 for
 * Australia; as text, France's reply j says False when j % 4 is 0, Australia's when j is even, so
 * four sampled verdicts read 0.75 and 0.5 whatever index a question's replies start at.
 */
function responder(req: ParsedRequest, j: number) {
  if (!req.user.includes('Is the possible answer')) return undefined;
  pTrueAsked += 1;
  const fr = req.user.includes('France');
  const p = fr ? 0.75 : 0.4;
  const text = (fr ? j % 4 === 0 : j % 2 === 0) ? 'False' : 'True';
  return { text, logprobs: [{ token: text, logprob: Math.log(text === 'True' ? p : 1 - p), top_logprobs: [{ token: 'True', logprob: Math.log(p) }, { token: 'False', logprob: Math.log(1 - p) }] }] };
}

async function startMock() {
  const mock = await MockProviderServer.start(
    { apiKey: KEY, questions: [{ match: QS[0].question, id: 'fr', answers: { Paris: 1 } }, { match: QS[1].question, id: 'au', answers: { Canberra: 3, Sydney: 1 } }] },
    { responder },
  );
  mocks.push(mock);
  return mock;
}

beforeEach(async () => {
  pTrueAsked = 0;
  dir = await mkdtemp(join(tmpdir(), 'semece-bpt-'));
  await writeFile(join(dir, 'qs.jsonl'), QS.map((q) => JSON.stringify(q)).join('\n') + '\n');
});
afterEach(async () => {
  for (const m of mocks.splice(0)) await m.close();
  await rm(dir, { recursive: true, force: true });
});

async function cli(mock: MockProviderServer, api: Api, args: string[], io: { signal?: AbortSignal; onErr?: (s: string) => void } = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const p = PROVIDERS[api];
  const base = [...p.args, '--base-url', `${mock.url}${p.path}`, '--dataset', join(dir, 'qs.jsonl'), '--samples', '3'];
  const code = await run([...base, ...args], { out: (s) => out.push(s), err: (s) => (err.push(s), io.onErr?.(s)), env: { [p.env]: KEY }, signal: io.signal });
  return { code, out, err, json: out.length ? JSON.parse(out.at(-1)!) : undefined };
}

const rowsIn = async (path: string) => (await readFile(path, 'utf8')).trim().split('\n').map((l) => JSON.parse(l));
const pTrueOf = (rows: { id: string; answer_extracted: string[]; p_true?: number | null; p_true_method?: string }[]) => rows.map((r) => [r.id, r.answer_extracted, r.p_true, r.p_true_method]);

describe('semece sample --batch submit --p-true', () => {
  it.each(['openai', 'anthropic', 'gemini'] as const)('%s: the direct path\'s p(True) values; a batch rerun and a direct rerun send nothing', async (api) => {
    const pTrueFlags = ['--p-true', '--p-true-samples', '4'];
    // The direct path on a mock of its own, from the same state.
    const direct = await startMock();
    const directOut = join(dir, 'direct.jsonl');
    expect((await cli(direct, api, ['--out', directOut, ...pTrueFlags])).code).toBe(0);
    const expected = pTrueOf(await rowsIn(directOut));
    expect(expected.every((r) => typeof r[2] === 'number')).toBe(true);

    pTrueAsked = 0;
    const mock = await startMock();
    const out = join(dir, 'rows.jsonl');
    const b = await cli(mock, api, ['--batch', 'submit', '--out', out, '--poll-interval', '1', ...pTrueFlags]);
    expect(b.code, b.err.join('\n')).toBe(0);
    expect(pTrueOf(await rowsIn(out))).toEqual(expected);
    // OpenAI's replies carry logprobs: one reply a question; the others read four sampled verdicts.
    expect(pTrueAsked).toBe(api === 'openai' ? 2 : 8);
    expect(b.json.pTrue.methods).toEqual(api === 'openai' ? { logprobs: 2, sampled: 0, none: 0 } : { logprobs: 0, sampled: 2, none: 0 });
    expect(b.json.pTrue.requests).toBeGreaterThan(0);
    expect(b.json.pTrue.tokens.input).toBeGreaterThan(0);
    expect(b.err.some((l) => l.startsWith('submitted p(True) batch'))).toBe(true);

    // A rerun, batch or direct, finds every reply under the same keys: no batch, no request.
    const created = mock.batches.created[api];
    const served = JSON.stringify(mock.stats().served);
    const again = await cli(mock, api, ['--batch', 'submit', '--out', out, '--poll-interval', '1', ...pTrueFlags]);
    expect(again.code).toBe(0);
    const d = await cli(mock, api, ['--out', out, ...pTrueFlags]);
    expect(d.code).toBe(0);
    expect(mock.batches.created[api]).toBe(created);
    expect(JSON.stringify(mock.stats().served)).toBe(served);
    expect(pTrueAsked).toBe(api === 'openai' ? 2 : 8);
    expect(pTrueOf(await rowsIn(out))).toEqual(expected);
  });

  it('a stopped submit collects its p(True) batch on the next run instead of submitting it again', async () => {
    const mock = await startMock();
    mock.batches.configure({ pollsUntilDone: 3 });
    const out = join(dir, 'rows.jsonl');
    const stop = new AbortController();
    const first = await cli(mock, 'openai', ['--batch', 'submit', '--out', out, '--poll-interval', '1', '--p-true'], {
      signal: stop.signal,
      onErr: (s) => s.startsWith('submitted p(True) batch') && stop.abort(),
    });
    expect(first.code).toBe(3);
    expect(pTrueAsked).toBe(0);
    const state = JSON.parse(await readFile(`${out}.batches.json`, 'utf8'));
    expect(state.pTruePending).toHaveLength(1);
    const created = mock.batches.created.openai;

    const second = await cli(mock, 'openai', ['--batch', 'submit', '--out', out, '--poll-interval', '1', '--p-true']);
    expect(second.code, second.err.join('\n')).toBe(0);
    expect(second.err.join('\n')).toContain(`collecting 1 p(True) batch(es) submitted earlier: ${state.pTruePending[0]}`);
    expect(second.err.some((l) => l.startsWith('submitted p(True) batch'))).toBe(false);
    expect(mock.batches.created.openai).toBe(created);
    expect(pTrueAsked).toBe(2);
    expect(JSON.parse(await readFile(`${out}.batches.json`, 'utf8'))).toEqual({ pending: [] });
    expect(pTrueOf(await rowsIn(out))).toEqual([
      ['fr', ['Paris', 'Paris', 'Paris'], 0.75, 'logprobs'],
      ['au', expect.any(Array), expect.closeTo(0.4, 12), 'logprobs'],
    ]);
  });
});

describe('semece sample --batch write|read --p-true', () => {
  it('a round at a time; a bad result line is named by file and line, and the good lines are kept', async () => {
    const mock = await startMock();
    const req = join(dir, 'req.jsonl');
    const out = join(dir, 'rows.jsonl');
    const flags = ['--p-true', '--p-true-samples', '1'];
    // The samples first: the p(True) requests need every question's answers.
    const w = await cli(mock, 'openai', ['--batch', 'write', '--out-requests', req, '--out', out, ...flags]);
    expect(w.code).toBe(0);
    expect(w.err.join('\n')).toMatch(/p\(True\): its requests are written once every sample is stored/);
    const sampleLines = (await readFile(req, 'utf8')).trim().split('\n').map((l) => JSON.parse(l));
    await writeFile(join(dir, 'res.jsonl'), sampleLines.map((l) => successLine('openai', l.custom_id, ['Answer: Paris\nConfidence: 80%', 'Answer: Paris\nConfidence: 70%', 'Answer: Lyon\nConfidence: 20%'])).join('\n') + '\n');
    const r = await cli(mock, 'openai', ['--batch', 'read', '--results', join(dir, 'res.jsonl'), '--out', out, ...flags]);
    expect(r.code).toBe(3);
    expect(r.json.pTrueMissing).toBe(2);

    const pw = await cli(mock, 'openai', ['--batch', 'write', '--out-requests', req, '--out', out, ...flags]);
    expect(pw.code).toBe(0);
    const pLines = (await readFile(req, 'utf8')).trim().split('\n').map((l) => JSON.parse(l));
    expect(pLines.map((l) => l.custom_id)).toEqual([expect.stringMatching(/^semece-p-/), expect.stringMatching(/^semece-p-/)]);
    expect(pLines[0].body.messages[0].content).toContain('Possible answer: Paris');
    expect(pLines[0].body.logprobs).toBe(true);

    // Line 2 is cut short: France's verdict (line 1) is stored, Australia's request stays to make.
    const resP = join(dir, 'res-p.jsonl');
    await writeFile(resP, `${successLine('openai', pLines[0].custom_id, ['True'])}\n${successLine('openai', pLines[1].custom_id, ['False']).slice(0, 40)}\n`);
    const bad = await cli(mock, 'openai', ['--batch', 'read', '--results', resP, '--out', out, ...flags]);
    expect(bad.code).toBe(3);
    expect(bad.err.join('\n')).toMatch(new RegExp(`${resP.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:2: not valid JSON`));
    expect(bad.err.join('\n')).toMatch(/p\(True\): 1 request\(s\) still to make/);

    const again = await cli(mock, 'openai', ['--batch', 'write', '--out-requests', req, '--out', out, ...flags]);
    const left = (await readFile(req, 'utf8')).trim().split('\n').map((l) => JSON.parse(l));
    expect(again.json.pTrue).toMatchObject({ requests: 1, cached: 1 });
    expect(left.map((l) => l.custom_id)).toEqual([pLines[1].custom_id]);

    await writeFile(resP, `${successLine('openai', pLines[1].custom_id, ['False'])}\n`);
    const done = await cli(mock, 'openai', ['--batch', 'read', '--results', resP, '--out', out, ...flags]);
    expect(done.code, done.err.join('\n')).toBe(0);
    // No logprobs in these lines: one sampled verdict each (--p-true-samples 1).
    expect(pTrueOf(await rowsIn(out))).toEqual([
      ['fr', ['Paris', 'Paris', 'Lyon'], 1, 'sampled'],
      ['au', ['Paris', 'Paris', 'Lyon'], 0, 'sampled'],
    ]);
    expect(mock.stats().requests).toBe(0);
    expect(pTrueAsked).toBe(0);
  });

  it('--p-true-samples without --p-true is a usage error', async () => {
    const mock = await startMock();
    const r = await cli(mock, 'openai', ['--batch', 'submit', '--out', join(dir, 'rows.jsonl'), '--p-true-samples', '3']);
    expect(r.code).toBe(2);
    expect(r.err.join('\n')).toMatch(/--p-true-samples and --p-true-brainstorm need --p-true/);
  });
});
