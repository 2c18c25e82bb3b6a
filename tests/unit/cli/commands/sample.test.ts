import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile, appendFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import run from '../../../../cli/commands/sample.ts';
import { MockProviderServer } from '../../../mock/provider-server.ts';

const KEY = 'sk-cli-test-key-1234567890';
let mock: MockProviderServer;
let dir: string;

const QUESTIONS = [
  { id: 'fr', question: 'What is the capital of France?', answer: 'Paris', aliases: ['Paris, France'] },
  { id: 'au', question: 'What is the capital of Australia?', answer: 'Canberra' },
  { id: 'mo', question: 'Who wrote Moby-Dick?', answer: 'Herman Melville' },
];

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'semece-sample-'));
  await writeFile(join(dir, 'qs.jsonl'), QUESTIONS.map((q) => JSON.stringify(q)).join('\n') + '\n');
  mock = await MockProviderServer.start({
    apiKey: KEY,
    questions: [
      { match: QUESTIONS[0].question, id: 'fr', answers: { Paris: 1 }, confidence: 95 },
      { match: QUESTIONS[1].question, id: 'au', answers: { Canberra: 3, Sydney: 1 }, confidence: 60 },
      { match: QUESTIONS[2].question, id: 'mo', answers: { 'Herman Melville': 1 }, confidence: 90 },
    ],
  });
});
afterEach(async () => {
  await mock.close();
  await rm(dir, { recursive: true, force: true });
});

function cli(args: string[], env: NodeJS.ProcessEnv = { OPENAI_API_KEY: KEY }) {
  const out: string[] = [];
  const err: string[] = [];
  const base = ['--provider', 'openai', '--base-url', `${mock.url}/v1`, '--model', 'gpt-4o-mini', '--dataset', join(dir, 'qs.jsonl'), '--out', join(dir, 'rows.jsonl')];
  return run([...base, ...args], { out: (s) => out.push(s), err: (s) => err.push(s), env }).then((code) => ({ code, out, err }));
}

async function rows() {
  return (await readFile(join(dir, 'rows.jsonl'), 'utf8')).trim().split('\n').map((l) => JSON.parse(l));
}

describe('semece sample', () => {
  it('writes one authors-format row per question with exactly n samples', async () => {
    const r = await cli(['--samples', '6', '--temperature', '0.9']);
    expect(r.code).toBe(0);
    const rs = await rows();
    expect(rs.map((x) => x.id)).toEqual(['fr', 'au', 'mo']);
    expect(Object.keys(rs[0]).sort()).toEqual(['answer_extracted', 'confidence_verbalized', 'gold_answer', 'gold_answer_aliases', 'id', 'model', 'n_samples', 'question', 'results'].sort());
    expect(rs[0]).toMatchObject({ gold_answer: 'Paris', gold_answer_aliases: ['Paris, France'], model: 'gpt-4o-mini', n_samples: 6 });
    expect(rs[0].answer_extracted).toEqual(Array(6).fill('Paris'));
    expect(rs[0].confidence_verbalized).toEqual(Array(6).fill(0.95));
    expect(rs[1]).not.toHaveProperty('gold_answer_aliases');
    for (const a of rs[1].answer_extracted) expect(['Canberra', 'Sydney']).toContain(a);
    expect(rs[1].results[0]).toMatch(/Answer: .*\nConfidence: 60%/);
    expect(mock.stats().lastRequest?.temperature).toBe(0.9);
    const summary = JSON.parse(r.out[0]);
    expect(summary).toMatchObject({ questions: 3, samplesPerQuestion: 6, fetched: 18, fromCache: 0 });
    expect([...r.out, ...r.err].join('\n')).not.toContain(KEY);
  });

  it('resumes after a stop: the repeat requests only what is missing', async () => {
    // Quota runs out on the second request: the run stops, keeping the first question's samples.
    mock.configure({ faults: { sequence: ['ok', 'quota'] } });
    const first = await cli(['--samples', '5', '--concurrency', '1']);
    expect(first.code).toBe(1);
    expect(first.err.join('\n')).toMatch(/credit or quota.*repeat the command to resume/s);
    const cached = (await readFile(join(dir, 'rows.jsonl.cache.jsonl'), 'utf8')).trim().split('\n');
    // By question (model/sample-groups.ts): the first question's 5 samples on one line.
    expect(cached).toHaveLength(1);
    expect(Object.keys(JSON.parse(cached[0]).samples)).toHaveLength(5);
    expect(cached.join('\n')).not.toContain(KEY);

    mock.configure({ faults: {} });
    const second = await cli(['--samples', '5']);
    expect(second.code).toBe(0);
    expect(JSON.parse(second.out[0])).toMatchObject({ fetched: 10, fromCache: 5 });
    expect(mock.stats().served).toEqual({ fr: 5, au: 5, mo: 5 });

    const requests = mock.stats().requests;
    const third = await cli(['--samples', '5']);
    expect(third.code).toBe(0);
    expect(mock.stats().requests).toBe(requests);
    expect((await rows()).every((r) => r.n_samples === 5)).toBe(true);
  });

  it('drops a cache line cut short by a crash once and re-requests only the samples it held', async () => {
    await cli(['--samples', '2']);
    const path = join(dir, 'rows.jsonl.cache.jsonl');
    const lines = (await readFile(path, 'utf8')).trim().split('\n');
    await writeFile(path, lines.slice(0, -1).join('\n') + '\n' + lines.at(-1)!.slice(0, 20));
    await appendFile(path, '\n');
    const r = await cli(['--samples', '2']);
    expect(r.code).toBe(0);
    expect(r.err.join('\n')).toMatch(/dropped 1 unreadable line/);
    // The torn line held one question's 2 samples (a line per question per write).
    expect(JSON.parse(r.out[0])).toMatchObject({ fetched: 2, fromCache: 4 });
    // Dropped once and the file rewritten: the repeat neither warns nor requests anything.
    const requests = mock.stats().requests;
    const again = await cli(['--samples', '2']);
    expect(again.code).toBe(0);
    expect(again.err.join('\n')).not.toMatch(/unreadable/);
    expect(mock.stats().requests).toBe(requests);
  });

  it('bad usage and bad input exit 2 with a message that says what is wrong', async () => {
    expect((await run(['--provider', 'nope'], { err: () => {}, out: () => {} }))).toBe(2);
    const noKey = await cli(['--samples', '2'], {});
    expect(noKey.code).toBe(2);
    expect(noKey.err.join('\n')).toMatch(/set OPENAI_API_KEY/);
    await writeFile(join(dir, 'qs.jsonl'), '{"question": "a", "answer": "b"}\n{broken\n');
    const bad = await cli([]);
    expect(bad.code).toBe(2);
    expect(bad.err.join('\n')).toMatch(/qs\.jsonl line 2: Not valid JSON/);
    const badN = await cli(['--samples', 'x']);
    expect(badN.code).toBe(2);
    expect(mock.stats().requests).toBe(0);
  });

  it('a question the provider refuses (400) is left out with its message; the others are written; exit 3', async () => {
    mock.configure({
      questions: [
        { match: QUESTIONS[0].question, id: 'fr', answers: { Paris: 1 }, confidence: 95 },
        { match: QUESTIONS[1].question, id: 'au', answers: { Canberra: 1 }, refuse: 'Your prompt was flagged by the safety system.' },
        { match: QUESTIONS[2].question, id: 'mo', answers: { 'Herman Melville': 1 }, confidence: 90 },
      ],
    });
    const r = await cli(['--samples', '3']);
    expect(r.code).toBe(3);
    expect((await rows()).map((x) => x.id)).toEqual(['fr', 'mo']);
    expect(r.err.join('\n')).toMatch(/question au left out: refused by the provider: .*flagged by the safety system/);
    expect(JSON.parse(r.out[0])).toMatchObject({ questions: 2, failed: [{ id: 'au', reason: expect.stringMatching(/^refused by the provider/) }] });
  });

  it('a refused key stops with exit 1 and never prints the key', async () => {
    const r = await cli(['--samples', '2'], { OPENAI_API_KEY: 'sk-wrong-0123456789abcdef' });
    expect(r.code).toBe(1);
    expect(r.err.join('\n')).toMatch(/check the key for OpenAI/);
    expect(r.err.join('\n')).not.toContain('sk-wrong-0123456789abcdef');
  });

  it('runs through the dispatcher as a child process (npm run semece -- sample …)', async () => {
    const args = ['cli/semece.ts', 'sample', '--provider', 'openai', '--base-url', `${mock.url}/v1`, '--model', 'gpt-4o-mini',
      '--dataset', join(dir, 'qs.jsonl'), '--samples', '4', '--out', join(dir, 'rows.jsonl')];
    const env = { PATH: process.env.PATH, HOME: process.env.HOME, OPENAI_API_KEY: KEY };
    const child = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      execFile('node_modules/.bin/tsx', args, { env, timeout: 60_000 }, (error, stdout, stderr) => {
        resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr });
      });
    });
    expect(child.stderr).not.toContain(KEY);
    expect(child.code).toBe(0);
    expect(JSON.parse(child.stdout)).toMatchObject({ questions: 3, samplesPerQuestion: 4, fetched: 12 });
    expect((await rows()).map((r) => r.n_samples)).toEqual([4, 4, 4]);
  });
});
