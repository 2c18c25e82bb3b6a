/**
 * The CLI's judges stop at the first refused key (401, 403) or exhausted account (402, 429
 * insufficient_quota): one request, not one per question, the message `semece sample` gives for
 * the same error, and "resume" where the command resumes (its judge cache keeps what arrived).
 * Against a loopback server that answers every request with the error and counts them.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import cluster from '../../../cli/commands/cluster';
import grade from '../../../cli/commands/grade';
import sample from '../../../cli/commands/sample';
import { EXIT } from '../../../cli/exit-codes';
import { stoppedLine } from '../../../cli/provider-stop';

const KEY = 'sk-Wd4gB8nC2vX6kM1pJ9';
let dir: string;
let server: Server;
let url: string;
let requests = 0;
let reply: { status: number; body: unknown } = { status: 401, body: {} };
const f = (name: string) => join(dir, name);

const ERRORS = [
  { name: '401', status: 401, body: { error: { message: 'Incorrect API key provided.', type: 'invalid_request_error', code: 'invalid_api_key' } }, advice: 'The key was refused (401): check the key for OpenAI' },
  { name: '403', status: 403, body: { error: { message: 'Project does not have access.', type: 'invalid_request_error', code: null } }, advice: 'The key was refused (403): check the key for OpenAI' },
  { name: '402', status: 402, body: { error: { message: 'Payment required.', type: 'billing_error', code: null } }, advice: 'The account has run out of credit or quota (402)' },
  { name: '429 insufficient_quota', status: 429, body: { error: { message: 'You exceeded your current quota.', type: 'insufficient_quota', code: 'insufficient_quota' } }, advice: 'The account has run out of credit or quota (429)' },
];

const rows = Array.from({ length: 8 }, (_, i) => ({
  id: `q${i}`, question: `Question ${i}?`, gold_answer: 'yes', model: 'm', n_samples: 2, results: ['r', 'r'], answer_extracted: ['yes', 'no'], confidence_verbalized: [null, null],
  // What grade reads: a clustered row.
  n_clusters: 2, cluster_labels: ['yes', 'no'], cluster_assignments: [0, 1], cluster_sizes: [1, 1], modal_cluster: 0, modal_cluster_label: 'yes',
}));

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'semece-judge-stop-'));
  await writeFile(f('rows.jsonl'), rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
  await writeFile(f('qs.jsonl'), '{"id": "fr", "question": "What is the capital of France?", "answer": "Paris"}\n');
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      requests++;
      res.writeHead(reply.status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(reply.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await rm(dir, { recursive: true, force: true });
});

async function cli(command: typeof cluster, args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await command(['--provider', 'openai', '--base-url', url, '--model', 'judge', ...args], { out: (s) => out.push(s), err: (s) => err.push(s), env: { OPENAI_API_KEY: KEY } });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

/** The provider's advice in a stop line: what `semece <command>: stopped:` says before what was kept. */
const advice = (line: string) => /stopped: (.*?)(?: Provider said:|\. )/.exec(line)?.[1];

describe('the judges stop at once on errors no retry can fix', () => {
  for (const e of ERRORS) {
    it(`${e.name}: cluster and grade send one request, exit 1, write no --out, and word it as sample does`, async () => {
      reply = { status: e.status, body: e.body };
      requests = 0;
      const sampled = await cli(sample, ['--dataset', f('qs.jsonl'), '--samples', '2', '--concurrency', '1', '--out', f(`sample-${e.status}.jsonl`)]);
      expect(sampled.code).toBe(EXIT.failed);
      const sampleAdvice = advice(sampled.err);
      expect(sampleAdvice).toContain(e.advice);

      for (const [command, name, what] of [[cluster, 'cluster', 'Clusterings'], [grade, 'grade', 'Grades']] as const) {
        requests = 0;
        const out = f(`${name}-${e.status}.jsonl`);
        const r = await cli(command, ['--method', 'judge', '--concurrency', '1', '--retries', '3', '--in', f('rows.jsonl'), '--out', out]);
        expect(requests).toBe(1);
        expect(r.code).toBe(EXIT.failed);
        expect(r.out).toBe('');
        expect(existsSync(out)).toBe(false);
        expect(r.err).toContain(`semece ${name}: stopped: ${e.advice}`);
        expect(advice(r.err)).toBe(sampleAdvice);
        expect(r.err).toContain(`${what} so far are kept in ${out}.cache.jsonl; repeat the command to resume.`);
        expect(r.err).not.toContain(KEY);
      }
    });
  }

  it('with --concurrency 64, cluster and grade send one request first and none after its refusal', async () => {
    reply = { status: 401, body: ERRORS[0].body };
    for (const [command, name] of [[cluster, 'cluster'], [grade, 'grade']] as const) {
      requests = 0;
      const r = await cli(command, ['--method', 'judge', '--concurrency', '64', '--in', f('rows.jsonl'), '--out', f(`fan-${name}.jsonl`)]);
      expect(r.code).toBe(EXIT.failed);
      expect(requests).toBe(1);
    }
  });

  it('with requests in flight at once, none is sent after the first refusal', async () => {
    reply = { status: 401, body: ERRORS[0].body };
    requests = 0;
    const r = await cli(cluster, ['--method', 'judge', '--concurrency', '3', '--in', f('rows.jsonl'), '--out', f('wide.jsonl')]);
    expect(r.code).toBe(EXIT.failed);
    expect(requests).toBeLessThanOrEqual(3);
  });
});

describe('stoppedLine', () => {
  it('says resume only where something was kept', () => {
    const why = 'The account has run out of credit or quota (429): add credit or raise the limit for openai, or wait for the quota to reset, then resume. Provider said: no.';
    expect(stoppedLine('mc', why, { what: 'Replies', path: 'c.jsonl' })).toBe(`semece mc: stopped: ${why.slice(0, -1)}. Replies so far are kept in c.jsonl; repeat the command to resume.`);
    const none = stoppedLine('mc', why);
    expect(none).not.toMatch(/resume/);
    expect(none).toBe('semece mc: stopped: The account has run out of credit or quota (429): add credit or raise the limit for openai, or wait for the quota to reset, then run the command again. Provider said: no. Nothing was kept.');
  });
});
