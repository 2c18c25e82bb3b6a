/**
 * `semece cluster --method judge` and `semece grade --method judge` keep every judge result as
 * it arrives (cli/judge-cache.ts): against a loopback provider that counts requests, a repeated
 * command sends none, and a command stopped halfway resumes asking only for what it lacks.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import cluster from '../../../cli/commands/cluster';
import grade from '../../../cli/commands/grade';
import { EXIT } from '../../../cli/exit-codes';
import { MockProviderServer } from '../../mock/provider-server';

const KEY = 'sk-Zq8vW2xK9pL4mN7rT3';
let dir: string;
let mock: MockProviderServer;
const f = (name: string) => join(dir, name);

/** Six questions, each with two distinct answers, so each needs one judge request. */
const sampled = Array.from({ length: 6 }, (_, i) => ({
  id: `q${i}`, question: `Question number ${i}?`, gold_answer: `yes ${i}`, model: 'm', n_samples: 3,
  results: ['r', 'r', 'r'], answer_extracted: [`yes ${i}`, `no ${i}`, `yes ${i}`], confidence_verbalized: [null, null, null],
}));

beforeAll(async () => {
  mock = await MockProviderServer.start({ apiKey: KEY });
  mock.responder = (req) => {
    if (/check whether an answer/.test(req.system)) return 'CORRECT';
    const i = /Question number (\d+)/.exec(req.user)?.[1];
    return JSON.stringify({ clusters: [{ label: `yes ${i}`, members: [0] }, { label: `no ${i}`, members: [1] }] });
  };
});
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'semece-judge-cache-'));
  await writeFile(f('sampled.jsonl'), sampled.map((r) => JSON.stringify(r)).join('\n') + '\n');
  mock.configure({ faults: {} });
});
afterAll(async () => {
  await mock?.close();
  await rm(dir, { recursive: true, force: true });
});

async function cli(command: typeof cluster, args: string[], model = 'judge') {
  const out: string[] = [];
  const err: string[] = [];
  const base = ['--method', 'judge', '--provider', 'openai', '--base-url', `${mock.url}/v1`, '--model', model, '--concurrency', '1'];
  const code = await command([...base, ...args], { out: (s) => out.push(s), err: (s) => err.push(s), env: { OPENAI_API_KEY: KEY } });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe('judge results are cached as they arrive', () => {
  it('cluster: the repeated command sends no judge request and writes the same rows', async () => {
    const args = ['--in', f('sampled.jsonl'), '--out', f('clustered.jsonl')];
    const before = mock.stats().requests;
    const first = await cli(cluster, args);
    expect(first.code).toBe(EXIT.ok);
    expect(mock.stats().requests - before).toBe(6);
    const rows = await readFile(f('clustered.jsonl'), 'utf8');

    const second = await cli(cluster, args);
    expect(second.code).toBe(EXIT.ok);
    expect(mock.stats().requests - before).toBe(6);
    expect(JSON.parse(second.out)).toMatchObject({ clustered: 6, calls: 0, fromCache: 6 });
    expect(second.err).toContain(`resuming: 6 clustering(s) already in ${f('clustered.jsonl')}.cache.jsonl`);
    expect(await readFile(f('clustered.jsonl'), 'utf8')).toBe(rows);
    expect(await readFile(`${f('clustered.jsonl')}.cache.jsonl`, 'utf8')).not.toContain(KEY);

    // Another judge model is another key: nothing is reused.
    await cli(cluster, args, 'another-judge');
    expect(mock.stats().requests - before).toBe(12);
  });

  it('cluster stopped by an exhausted quota halfway resumes with only the questions it lacks', async () => {
    const args = ['--in', f('sampled.jsonl'), '--out', f('clustered.jsonl')];
    mock.configure({ faults: { sequence: ['ok', 'ok', 'quota'] } });
    const before = mock.stats().requests;
    const stopped = await cli(cluster, args);
    expect(stopped.code).toBe(EXIT.failed);
    expect(mock.stats().requests - before).toBe(3);

    mock.configure({ faults: {} });
    const resumed = await cli(cluster, args);
    expect(resumed.code).toBe(EXIT.ok);
    expect(mock.stats().requests - before).toBe(3 + 4);
    expect(JSON.parse(resumed.out)).toMatchObject({ clustered: 6, fromCache: 2 });
  });

  it('grade: the repeated command sends no judge request', async () => {
    await cli(cluster, ['--in', f('sampled.jsonl'), '--out', f('clustered.jsonl')]);
    const args = ['--in', f('clustered.jsonl'), '--out', f('graded.jsonl')];
    const before = mock.stats().requests;
    const first = await cli(grade, args);
    expect(first.code).toBe(EXIT.ok);
    expect(mock.stats().requests - before).toBe(6);
    const rows = await readFile(f('graded.jsonl'), 'utf8');

    const second = await cli(grade, args);
    expect(second.code).toBe(EXIT.ok);
    expect(mock.stats().requests - before).toBe(6);
    expect(JSON.parse(second.out)).toMatchObject({ CORRECT: 6, fromCache: 6 });
    expect(await readFile(f('graded.jsonl'), 'utf8')).toBe(rows);
  });

  it('a torn last line of the judge cache is dropped once and only that question judged again', async () => {
    const args = ['--in', f('sampled.jsonl'), '--out', f('clustered.jsonl')];
    await cli(cluster, args);
    const cache = `${f('clustered.jsonl')}.cache.jsonl`;
    const text = await readFile(cache, 'utf8');
    await writeFile(cache, text.slice(0, text.length - 10));
    const before = mock.stats().requests;
    const again = await cli(cluster, args);
    expect(again.err).toMatch(/dropped 1 unreadable line/);
    expect(mock.stats().requests - before).toBe(1);
    const third = await cli(cluster, args);
    expect(third.err).not.toMatch(/unreadable/);
    expect(mock.stats().requests - before).toBe(1);
  });
});
