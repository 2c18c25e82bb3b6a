/**
 * `semece mc` against a server that cannot be reached, from the start or from some point on: the
 * run stops on that one cause after about one request's retries (exit 3, the replies so far kept in
 * --cache, the same command resumes), as `semece sample` does, through the multiple-choice phases'
 * shared stop (pipeline/unreachable.ts), counted by requests, never by clock. The HTTP client's
 * sleep is injected (no waiting between retries), its fetch is the real one, counted.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { closedPort } from '../../../mock/closed-port.ts';
import run from '../../../../cli/commands/mc.ts';
import { MockProviderServer } from '../../../mock/provider-server.ts';
import { DEFAULT_POLICY } from '../../../../src/providers/http.ts';
import { countedCliIo } from '../../../mock/counted-cli-io.ts';
import { CONNECTION_FAILURES_BEFORE_STOP } from '../../../../src/pipeline/unreachable.ts';

const KEY = 'sk-mc-unreachable-key-1234567890';
const QUESTIONS = Array.from({ length: 60 }, (_, i) => ({ id: `q${i}`, question: `Which colour is number ${i}?`, answer: 'A', options: ['red', 'green', 'blue'] }));
const RUNS = 2;
const CONCURRENCY = 4;
/** One request's attempts: the first and its retries. */
const ATTEMPTS_PER_REQUEST = DEFAULT_POLICY.maxRetries + 1;

let dir: string;
let mock: MockProviderServer | undefined;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'semece-mc-unreachable-'));
  await writeFile(join(dir, 'mc.jsonl'), QUESTIONS.map((q) => JSON.stringify(q)).join('\n') + '\n');
});
afterEach(async () => {
  await mock?.close();
  mock = undefined;
  await rm(dir, { recursive: true, force: true });
});

async function server(port?: number): Promise<MockProviderServer> {
  const m = await MockProviderServer.start({ apiKey: KEY }, port === undefined ? {} : { port });
  m.responder = () => '{"answer": "A", "probability": 70}';
  return m;
}

/** Runs the command in-process with the real fetch, counted, and no wait between retries. */
function mc(baseUrl: string, onResponse: (n: number) => Promise<void> | void = () => {}) {
  const { io, out, err, counts } = countedCliIo({ OPENAI_API_KEY: KEY }, onResponse);
  const args = ['--provider', 'openai', '--base-url', baseUrl, '--model', 'gpt-4o-mini', '--dataset', join(dir, 'mc.jsonl'), '--runs', String(RUNS), '--no-logprobs', '--concurrency', String(CONCURRENCY), '--cache', join(dir, 'replies.jsonl'), '--out', join(dir, 'rows.jsonl')];
  return run(args, io).then((code) => ({ code, out, err: err.join('\n'), counts }));
}

describe('semece mc against a server that cannot be reached', () => {
  it('a closed port from the start: stops after the first request and its retries, exit 3, resumable', async () => {
    const port = await closedPort();
    const r = await mc(`http://127.0.0.1:${port}/v1`);
    expect(r.code).toBe(3);
    expect(r.err).toMatch(new RegExp(`semece mc: stopped: The server at 127\\.0\\.0\\.1:${port} cannot be reached \\(connection refused\\)`));
    expect(r.err).toMatch(/Replies so far are kept in .*replies\.jsonl; run the same command again to resume/);
    // At most the requests in flight when the first one gave up, each with its retries: not one
    // chain per question (60 × 2 runs × 7 attempts).
    expect(r.counts.attempts).toBeLessThanOrEqual(CONCURRENCY * ATTEMPTS_PER_REQUEST);
    expect(r.counts.responses).toBe(0);
    expect(r.out).toEqual([]);
    expect(r.err).not.toContain(KEY);
  });

  it('a server that goes away mid-run: stops after a few refused requests, keeps the replies, and the same command resumes', async () => {
    mock = await server();
    const url = `${mock.url}/v1`;
    const port = Number(new URL(mock.url).port);
    const first = await mc(url, async (n) => {
      // The server stops after its tenth reply: every later connection is refused.
      if (n === 10) await mock!.close();
    });
    mock = undefined;
    expect(first.code).toBe(3);
    expect(first.err).toMatch(new RegExp(`The server at 127\\.0\\.0\\.1:${port} cannot be reached \\(connection refused\\): the last ${CONNECTION_FAILURES_BEFORE_STOP} requests all failed to connect`));
    expect(first.err).toMatch(/run the same command again to resume/);
    // The replies, then the requests in flight and those started before the stop, each with its retries.
    expect(first.counts.attempts).toBeLessThanOrEqual(first.counts.responses + (CONCURRENCY + CONNECTION_FAILURES_BEFORE_STOP - 1) * ATTEMPTS_PER_REQUEST);
    const kept = (await readFile(join(dir, 'replies.jsonl'), 'utf8')).trim().split('\n').length;
    expect(kept).toBeGreaterThan(0);

    // Back on the same address: the same command asks only for what is missing and finishes.
    mock = await server(port);
    const second = await mc(url);
    expect(second.code).toBe(0);
    expect(second.err).toMatch(/reply\(ies\) already in/);
    const rows = (await readFile(join(dir, 'rows.jsonl'), 'utf8')).trim().split('\n').map((l) => JSON.parse(l));
    expect(rows).toHaveLength(QUESTIONS.length * RUNS);
    expect(second.counts.responses).toBeLessThan(QUESTIONS.length * RUNS);
  });
});
