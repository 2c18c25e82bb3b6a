/**
 * `semece sample` against a server that cannot be reached, from the start or from some point on:
 * the run stops after about one request's retries (exit 3, the samples so far kept, the same
 * command resumes) instead of failing every question on its own. The HTTP client's sleep is
 * injected (no waiting between retries), its fetch is the real one, counted.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { closedPort } from '../../../mock/closed-port.ts';
import run from '../../../../cli/commands/sample.ts';
import { MockProviderServer } from '../../../mock/provider-server.ts';
import { DEFAULT_POLICY } from '../../../../src/providers/http.ts';
import { countedCliIo } from '../../../mock/counted-cli-io.ts';
import { CONNECTION_FAILURES_BEFORE_STOP } from '../../../../src/pipeline/unreachable.ts';

const KEY = 'sk-cli-unreachable-key-1234567890';
const QUESTIONS = Array.from({ length: 200 }, (_, i) => ({ id: `q${i}`, question: `Question number ${i}?`, answer: 'Paris' }));
const CONCURRENCY = 8;
/** One request's attempts: the first and its retries. */
const ATTEMPTS_PER_REQUEST = DEFAULT_POLICY.maxRetries + 1;

let dir: string;
let mock: MockProviderServer | undefined;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'semece-unreachable-'));
  await writeFile(join(dir, 'qs.jsonl'), QUESTIONS.map((q) => JSON.stringify(q)).join('\n') + '\n');
});
afterEach(async () => {
  await mock?.close();
  mock = undefined;
  await rm(dir, { recursive: true, force: true });
});

/** Runs the command in-process with the real fetch, counted, and no wait between retries. */
function sample(baseUrl: string, onResponse: (n: number) => Promise<void> | void = () => {}) {
  const { io, out, err, counts } = countedCliIo({ OPENAI_API_KEY: KEY }, onResponse);
  const args = ['--provider', 'openai', '--base-url', baseUrl, '--model', 'gpt-4o-mini', '--dataset', join(dir, 'qs.jsonl'), '--out', join(dir, 'rows.jsonl'), '--samples', '2', '--concurrency', String(CONCURRENCY)];
  return run(args, io).then((code) => ({ code, out, err: err.join('\n'), counts }));
}

describe('semece sample against a server that cannot be reached', () => {
  it('a closed port from the start: stops after the first request and its retries, exit 3, resumable', async () => {
    const port = await closedPort();
    const r = await sample(`http://127.0.0.1:${port}/v1`);
    expect(r.code).toBe(3);
    expect(r.err).toMatch(new RegExp(`The server at 127\\.0\\.0\\.1:${port} cannot be reached \\(connection refused\\)`));
    expect(r.err).toMatch(/run the same command again to resume/);
    // At most the requests in flight when the first one gave up, each with its retries: not one
    // chain per question (200 × 3 × 7 attempts).
    expect(r.counts.attempts).toBeLessThanOrEqual(CONCURRENCY * ATTEMPTS_PER_REQUEST);
    expect(r.counts.responses).toBe(0);
    expect(r.out).toEqual([]);
    expect(r.err).not.toContain(KEY);
  });

  it('a server that goes away mid-run: stops after a few refused requests, keeps the samples, and the same command resumes', async () => {
    mock = await MockProviderServer.start({ apiKey: KEY, defaultAnswers: { Paris: 1 } });
    const url = `${mock.url}/v1`;
    const port = Number(new URL(mock.url).port);
    const first = await sample(url, async (n) => {
      // The server stops after its tenth reply: every later connection is refused.
      if (n === 10) await mock!.close();
    });
    mock = undefined;
    expect(first.code).toBe(3);
    expect(first.err).toMatch(new RegExp(`The server at 127\\.0\\.0\\.1:${port} cannot be reached \\(connection refused\\): the last 3 requests all failed to connect`));
    expect(first.err).toMatch(/Samples so far are kept in .*rows\.jsonl\.cache\.jsonl; run the same command again to resume/);
    // The replies, then the requests in flight and the two started after the first refused ones
    // gave up, each with its retries: not one chain per question left (190 × 3 × 7 attempts).
    expect(first.counts.attempts).toBeLessThanOrEqual(first.counts.responses + (CONCURRENCY + CONNECTION_FAILURES_BEFORE_STOP - 1) * ATTEMPTS_PER_REQUEST);
    const kept = (await readFile(join(dir, 'rows.jsonl.cache.jsonl'), 'utf8')).trim().split('\n').length;
    expect(kept).toBeGreaterThan(0);

    // Back on the same address: the same command asks only for what is missing and finishes.
    mock = await MockProviderServer.start({ apiKey: KEY, defaultAnswers: { Paris: 1 } }, { port });
    const second = await sample(url);
    expect(second.code).toBe(0);
    expect(second.err).toMatch(/resuming: \d+ sample\(s\) already in/);
    const rows = (await readFile(join(dir, 'rows.jsonl'), 'utf8')).trim().split('\n').map((l) => JSON.parse(l));
    expect(rows).toHaveLength(200);
    expect(rows.every((row) => row.n_samples === 2)).toBe(true);
    expect(second.counts.responses).toBeLessThan(200);
  });
});
