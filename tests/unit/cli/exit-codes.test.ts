/**
 * The exit codes of cli/exit-codes.ts as a script sees them: every command run as a child
 * process, against a loopback mock provider where a provider is needed.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT, EXIT_CODES_HELP } from '../../../cli/exit-codes';
import { MockProviderServer } from '../../mock/provider-server';
import { semece, spawnSemece, until } from './run-cli';

const KEY = 'sk-Pk3jD7fG1hL9sA4zX6';
const COMMANDS = ['cluster', 'compare', 'grade', 'mc', 'sample', 'score'];
let dir: string;
let mock: MockProviderServer;

const sampled = [
  { id: 'fr', question: 'What is the capital of France?', gold_answer: 'Paris', model: 'm', n_samples: 3, results: ['r', 'r', 'r'], answer_extracted: ['Paris', 'Lyon', 'Paris'], confidence_verbalized: [null, null, null] },
  { id: 'two', question: 'How many moons does Mars have?', gold_answer: '2', model: 'm', n_samples: 2, results: ['r', 'r'], answer_extracted: ['two', 'three'], confidence_verbalized: [null, null] },
];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'semece-exit-'));
  await writeFile(join(dir, 'sampled.jsonl'), sampled.map((r) => JSON.stringify(r)).join('\n') + '\n');
  await writeFile(join(dir, 'qs.jsonl'), '{"id": "fr", "question": "What is the capital of France?", "answer": "Paris"}\n');
  mock = await MockProviderServer.start({ apiKey: KEY });
  // France gets a valid partition; Mars never does, so its clustering fails.
  mock.responder = (req) => (req.user.includes('France') && /clusters/.test(req.system + req.user) ? '{"clusters":[{"label":"Paris","members":[0]},{"label":"Lyon","members":[1]}]}' : 'not json');
});
afterAll(async () => {
  await mock?.close();
  await rm(dir, { recursive: true, force: true });
});

const judge = () => ['--provider', 'openai', '--base-url', `${mock.url}/v1`, '--model', 'judge'];

describe('exit codes', () => {
  it('the codes are 0 done, 1 failed, 2 bad input, 3 partial', () => {
    expect(EXIT).toEqual({ ok: 0, failed: 1, badInput: 2, partial: 3 });
  });

  it('every command documents them in --help and exits 0 for it; the dispatcher lists them too', async () => {
    const runs = await Promise.all([...COMMANDS.map((c) => semece([c, '--help'])), semece(['--help'])]);
    for (const r of runs) {
      expect(r.code).toBe(EXIT.ok);
      expect(r.stdout).toContain(EXIT_CODES_HELP);
    }
    const batch = await semece(['sample', '--batch', 'write', '--help']);
    expect(batch.stdout).toContain(EXIT_CODES_HELP);
  });

  it('an unknown flag is bad input (2) for every command', async () => {
    const runs = await Promise.all(COMMANDS.map((c) => semece([c, '--frobnicate'])));
    for (const r of runs) expect(r.code).toBe(EXIT.badInput);
  });

  it('an unreadable input file is bad input (2)', async () => {
    const r = await semece(['cluster', '--method', 'exact', '--in', join(dir, 'missing.jsonl'), '--out', join(dir, 'x.jsonl')]);
    expect(r.code).toBe(EXIT.badInput);
    expect(r.stderr).toContain('cannot read --in');
  });

  it('cluster with one question the judge never partitions: partial (3), rows written', async () => {
    const r = await semece(['cluster', '--method', 'judge', ...judge(), '--retries', '0', '--in', join(dir, 'sampled.jsonl'), '--out', join(dir, 'clustered.jsonl')], { OPENAI_API_KEY: KEY });
    expect(r.stderr).not.toContain(KEY);
    expect(r.code).toBe(EXIT.partial);
    expect(JSON.parse(r.stdout)).toMatchObject({ clustered: 1, failed: 1 });

    const g = await semece(['grade', '--method', 'alias', '--in', join(dir, 'clustered.jsonl'), '--out', join(dir, 'graded.jsonl')]);
    expect(g.code).toBe(EXIT.partial);
    expect(JSON.parse(g.stdout)).toMatchObject({ CORRECT: 1, ungraded: 1 });
  });

  it('an output that cannot be written is a failure (1)', async () => {
    const ref = (name: string) => join('tests/fixtures/reference-sample', name);
    const r = await semece(['score', '--clustered', ref('clustered.jsonl'), '--graded', ref('graded.jsonl'), '--B', '50', '--report', join(dir, 'no-such-dir', 'r.json')]);
    expect(r.code).toBe(EXIT.failed);
    expect(r.stderr).toContain('cannot write --report');
  });

  it('a refused key is a failure (1)', async () => {
    const r = await semece(['sample', ...judge(), '--dataset', join(dir, 'qs.jsonl'), '--out', join(dir, 'rows.jsonl'), '--samples', '2'], { OPENAI_API_KEY: 'sk-wrong-0123456789abcdef' });
    expect(r.code).toBe(EXIT.failed);
    expect(r.stderr).toMatch(/check the key for OpenAI/);
  });

  it('sample interrupted while a request is in flight: partial (3), what it had kept for the resume', async () => {
    mock.configure({ faults: { sequence: ['hang'], hangMs: 600_000 } });
    try {
      const before = mock.stats().requests;
      const { child, done } = spawnSemece(['sample', ...judge(), '--dataset', join(dir, 'qs.jsonl'), '--out', join(dir, 'int.jsonl'), '--samples', '2'], { OPENAI_API_KEY: KEY });
      await until(() => mock.stats().requests > before);
      child.kill('SIGINT');
      const r = await done;
      expect(r.stderr).toMatch(/interrupted.*repeat the command to resume/);
      expect(r.code).toBe(EXIT.partial);
    } finally {
      mock.configure({ faults: {} });
    }
  });
});
