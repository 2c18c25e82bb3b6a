/**
 * `semece sample --p-true` against the loopback mock: p(True) read from the verdict token's
 * logprobs where the reply carries them, from the share of sampled "True" verdicts where it does
 * not, written into the rows with how it was read; a repeat is served from the cache file.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import run from '../../../../cli/commands/sample.ts';
import { MockProviderServer, type ParsedRequest } from '../../../mock/provider-server.ts';

const KEY = 'sk-cli-test-key-1234567890';
let mock: MockProviderServer;
let dir: string;
/** p(True) prompts seen, by question. */
let pTruePrompts: Record<string, string[]>;
let sampledVerdicts: number;

const QUESTIONS = [
  { id: 'fr', question: 'What is the capital of France?', answer: 'Paris' },
  { id: 'au', question: 'What is the capital of Australia?', answer: 'Canberra' },
];

// Verdict replies the p(True) requests get: France's with logprobs (P(True) 0.6, P(False) 0.2,
// and a token that is no verdict), Australia's without, True on 3 of every 4 replies.
function responder(req: ParsedRequest) {
  if (!req.user.includes('Is the possible answer')) return undefined;
  const id = req.user.includes('France') ? 'fr' : 'au';
  (pTruePrompts[id] ??= []).push(req.user);
  if (id === 'fr') {
    return {
      text: 'True',
      logprobs: [{ token: 'True', logprob: Math.log(0.6), top_logprobs: [{ token: 'True', logprob: Math.log(0.6) }, { token: 'The', logprob: Math.log(0.15) }, { token: ' False', logprob: Math.log(0.2) }] }],
    };
  }
  return sampledVerdicts++ % 4 === 3 ? 'False.' : '(A) True';
}

beforeEach(async () => {
  pTruePrompts = {};
  sampledVerdicts = 0;
  dir = await mkdtemp(join(tmpdir(), 'semece-ptrue-'));
  await writeFile(join(dir, 'qs.jsonl'), QUESTIONS.map((q) => JSON.stringify(q)).join('\n') + '\n');
  mock = await MockProviderServer.start(
    {
      apiKey: KEY,
      questions: [
        { match: QUESTIONS[0].question, id: 'fr', answers: { Paris: 1 }, confidence: 95 },
        { match: QUESTIONS[1].question, id: 'au', answers: { Canberra: 3, Sydney: 1 }, confidence: 60 },
      ],
    },
    { responder },
  );
});
afterEach(async () => {
  await mock.close();
  await rm(dir, { recursive: true, force: true });
});

function cli(args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const base = ['--provider', 'openai', '--base-url', `${mock.url}/v1`, '--model', 'gpt-4o-mini', '--dataset', join(dir, 'qs.jsonl'), '--out', join(dir, 'rows.jsonl')];
  return run([...base, ...args], { out: (s) => out.push(s), err: (s) => err.push(s), env: { OPENAI_API_KEY: KEY } }).then((code) => ({ code, out, err }));
}

async function rows() {
  return (await readFile(join(dir, 'rows.jsonl'), 'utf8')).trim().split('\n').map((l) => JSON.parse(l));
}

describe('semece sample --p-true', () => {
  it('reads p(True) from logprobs where returned and from sampled verdicts otherwise, and a repeat pays nothing', async () => {
    const r = await cli(['--samples', '8', '--p-true', '--p-true-samples', '8']);
    expect(r.code).toBe(0);
    const [fr, au] = await rows();
    // 0.6 / (0.6 + 0.2): the verdict tokens of the first position, normalised over True and False.
    expect(fr.p_true).toBeCloseTo(0.75, 12);
    expect(fr.p_true_method).toBe('logprobs');
    // One request for France (its logprobs sufficed); eight replies for Australia, 6 of them True.
    expect(pTruePrompts.fr).toHaveLength(1);
    expect(au.p_true_method).toBe('sampled');
    expect(au.p_true).toBe(6 / 8);
    // The proposed answer is the most frequent one; no brainstormed ideas unless asked.
    expect(pTruePrompts.fr[0]).toContain('Possible answer: Paris\n');
    expect(pTruePrompts.fr[0]).not.toContain('brainstormed');
    const summary = JSON.parse(r.out[0]);
    expect(summary.pTrue).toMatchObject({ methods: { logprobs: 1, sampled: 1, none: 0 }, fromCache: 0, failed: [] });
    expect(summary.pTrue.requests).toBeGreaterThanOrEqual(3);
    // The summary's totals are everything the command sent: the samples' requests (the last
    // progress line) and p(True)'s, with their cost at the default price (gpt-4o-mini: $0.15 in, $0.60 out per million).
    const priced = (t: { input: number; output: number }) => (t.input * 0.15 + t.output * 0.6) / 1e6;
    const sampling = r.err.filter((l) => l.startsWith('samples ')).at(-1)!.match(/requests (\d+) done.*tokens (\d+) in \/ (\d+) out/)!.slice(1).map(Number);
    expect(summary.requests.done).toBe(mock.stats().requests);
    expect(summary.requests.done).toBe(sampling[0] + summary.pTrue.requests);
    expect(summary.tokens).toEqual({ input: sampling[1] + summary.pTrue.tokens.input, output: sampling[2] + summary.pTrue.tokens.output });
    expect(summary.pTrue.cost).toBeCloseTo(priced(summary.pTrue.tokens), 15);
    expect(summary.pTrue.cost).toBeGreaterThan(0);
    expect(summary.cost).toBeCloseTo(priced(summary.tokens), 15);

    const sent = mock.stats().requests;
    const again = await cli(['--samples', '8', '--p-true', '--p-true-samples', '8']);
    expect(again.code).toBe(0);
    expect(mock.stats().requests).toBe(sent);
    expect(await rows()).toEqual([fr, au]);
    // A repeat sends nothing and spends nothing; what it read says where it came from.
    const repeat = JSON.parse(again.out[0]);
    expect(repeat.pTrue).toMatchObject({ requests: 0, fromCache: 9, cost: 0 });
    expect(repeat).toMatchObject({ requests: { done: 0, failed: 0 }, tokens: { input: 0, output: 0 }, cost: 0 });
  });

  it('p(True) added to a sampled file: the repeat with --p-true pays only p(True), and says so', async () => {
    expect((await cli(['--samples', '4'])).code).toBe(0);
    const sampled = mock.stats().requests;
    const r = await cli(['--samples', '4', '--p-true', '--p-true-samples', '4']);
    expect(r.code).toBe(0);
    const summary = JSON.parse(r.out[0]);
    expect(summary.fromCache).toBe(8);
    expect(summary.requests.done).toBe(mock.stats().requests - sampled);
    expect(summary.requests.done).toBe(summary.pTrue.requests);
    expect(summary.tokens).toEqual(summary.pTrue.tokens);
    expect(summary.cost).toBeCloseTo(summary.pTrue.cost, 15);
    expect(summary.cost).toBeGreaterThan(0);
  });

  it('shows the other answers as brainstormed ideas when asked, under keys of their own', async () => {
    const r = await cli(['--samples', '8', '--p-true', '--p-true-brainstorm']);
    expect(r.code).toBe(0);
    const prompt = pTruePrompts.au[0];
    expect(prompt).toMatch(/Here are some ideas that were brainstormed: Sydney\nPossible answer: Canberra\n/);
    const sent = mock.stats().requests;
    // Without brainstorming the prompt differs, so its replies are asked for anew.
    await cli(['--samples', '8', '--p-true']);
    expect(mock.stats().requests).toBeGreaterThan(sent);
  });

  it('writes no p_true without --p-true, and refuses its settings alone', async () => {
    expect((await cli(['--samples', '2'])).code).toBe(0);
    expect((await rows())[0]).not.toHaveProperty('p_true');
    expect(pTruePrompts).toEqual({});
    const bad = await cli(['--samples', '2', '--p-true-samples', '3']);
    expect(bad.code).toBe(2);
    expect(bad.err.join('\n')).toMatch(/need --p-true/);
  });
});
