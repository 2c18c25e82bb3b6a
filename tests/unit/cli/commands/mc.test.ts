import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { MockProviderServer } from '../../../mock/provider-server';
import run from '../../../../cli/commands/mc';
import { NOT_A_PROBABILITY } from '../../../../src/pipeline/signal-comparison';
import { COLOUR_QUESTIONS, COLOUR_REPLIES } from './colour-questions';

const DATASET = [
  ...COLOUR_QUESTIONS,
  { id: 'q4', question: 'Not multiple choice?', answer: 'Paris' },
];

const REPLIES = COLOUR_REPLIES;

let mock: MockProviderServer;
let dir: string;
let dataset: string;
beforeAll(async () => {
  mock = await MockProviderServer.start({ apiKey: 'mock-key' });
  mock.responder = (req, j) => REPLIES[/Question: (.*)/.exec(req.user)?.[1] ?? '']?.[j];
  dir = await mkdtemp(join(tmpdir(), 'semece-mc-'));
  dataset = join(dir, 'mc.jsonl');
  await writeFile(dataset, DATASET.map((d) => JSON.stringify(d)).join('\n') + '\n');
});
afterAll(async () => {
  await mock.close();
  await rm(dir, { recursive: true, force: true });
});

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, io: { out: (s: string) => out.push(s), err: (s: string) => err.push(s), env: { VLLM_API_KEY: 'mock-key' } } };
}

describe('semece mc', () => {
  test('three runs: rows written, summary printed, non-multiple-choice rows skipped and named', async () => {
    const c = capture();
    const outFile = join(dir, 'rows.jsonl');
    const code = await run(['--provider', 'vllm', '--base-url', `${mock.url}/v1`, '--model', 'm', '--dataset', dataset, '--runs', '3', '--out', outFile, '--no-logprobs'], c.io);
    expect(c.err.join('\n')).toContain('q4');
    expect(code).toBe(0);
    const summary = JSON.parse(c.out.join('\n'));
    expect(summary.questions).toBe(3);
    expect(summary.runs).toBe(3);
    // Run 1, all right (q2's gold "green" is B): q1 (0.9−1)², q2 (0.7−1)², q3 (0.5−1)²
    expect(summary.brier.runs[0]).toBeCloseTo((0.01 + 0.09 + 0.25) / 3, 12);
    expect(summary.accuracy.runs[0]).toBe(1);
    expect(summary.baseline).toBeCloseTo((0.1875 * 2 + 0.25) / 3, 15);
    expect(summary.fallbacks.total).toBe(1);
    expect(summary.byCategory.hard.questions).toBe(1);
    expect(summary.brier.sd).toBeGreaterThan(0);
    expect(summary.skipped).toEqual([expect.objectContaining({ where: 'question "q4"' })]);
    const rows = (await readFile(outFile, 'utf8')).trim().split('\n').map((l) => JSON.parse(l));
    expect(rows).toHaveLength(9);
    expect(rows.filter((r) => r.fallback !== null)).toEqual([expect.objectContaining({ id: 'q2', run: 1, fallback: 'no-answer', probability: 0.25 })]);
    expect(c.out.join('') + c.err.join('')).not.toContain('mock-key');
  });

  test('--samples adds Sem-ECE on the same questions, with the logprob absence explained', async () => {
    const keep = mock.responder;
    mock.responder = (req, j) => `{"answer": "${j % 4 === 3 ? 'B' : 'A'}", "probability": 80}`;
    const c = capture();
    const semOut = join(dir, 'sem.jsonl');
    const code = await run(['--provider', 'vllm', '--base-url', `${mock.url}/v1`, '--model', 'm', '--dataset', dataset, '--runs', '1', '--samples', '8', '--sem-out', semOut], c.io);
    mock.responder = keep;
    expect(code).toBe(0);
    const summary = JSON.parse(c.out.join('\n'));
    expect(summary.semEce.samples).toBe(8);
    expect(summary.semEce.comparison.rows).toBe(3);
    // Three questions cannot tell the signals apart: none is named best (the rule's test does not reject).
    expect(summary.semEce.verdict).toMatch(/^No signal is named best calibrated on these 3 questions/);
    expect(summary.semEce.comparison.selection.named).toBe(false);
    // The logprob's absence said; the confidence forms (not probabilities, issue 29) listed as left out.
    expect(summary.semEce.comparison.excluded[0]).toEqual({ signal: 'logprob', reason: 'no question has this signal' });
    expect(summary.semEce.comparison.excluded.slice(1).map((x: { reason: string }) => x.reason)).toEqual(Array(6).fill(NOT_A_PROBABILITY));
    expect(summary.semEce.logprobAbsent).toMatch(/returned none/);
    expect(summary.logprob.absence).toMatch(/returned none/);
    const rows = (await readFile(semOut, 'utf8')).trim().split('\n').map((l) => JSON.parse(l));
    expect(rows.map((r) => r.n_samples)).toEqual([8, 8, 8]);
    expect(rows[0]).toMatchObject({ id: 'q1', grade: 'CORRECT', Y: 1, modal_cluster_label: 'A' });
  });

  test('bad usage and a missing key exit 2 with a message', async () => {
    const c = capture();
    expect(await run(['--provider', 'vllm', '--model', 'm'], c.io)).toBe(2);
    expect(c.err.join('')).toContain('--dataset is required');
    const d = capture();
    expect(await run(['--provider', 'openai', '--model', 'm', '--dataset', dataset], { ...d.io, env: {} })).toBe(2);
    expect(d.err.join('')).toContain('OPENAI_API_KEY');
    const e = capture();
    expect(await run(['--provider', 'vllm', '--model', 'm', '--dataset', join(dir, 'missing.jsonl')], e.io)).toBe(2);
    expect(e.err.join('')).toContain('cannot read the dataset');
    const f = capture();
    expect(await run(['--provider', 'vllm', '--model', 'm', '--dataset', dataset, '--runs', '0'], f.io)).toBe(2);
    expect(f.err.join('')).toContain('--runs must be an integer ≥ 1');
  });

  test('--cache: the same command repeated sends no request and writes the same rows and report', async () => {
    const keep = mock.responder;
    mock.responder = (req, j) => `{"answer": "${j % 3 === 2 ? 'B' : 'A'}", "probability": ${50 + j * 5}}`;
    const cache = join(dir, 'replies.cache.jsonl');
    const args = (tag: string) => ['--provider', 'vllm', '--base-url', `${mock.url}/v1`, '--model', 'm', '--dataset', dataset, '--runs', '2', '--samples', '3', '--no-logprobs', '--cache', cache, '--out', join(dir, `${tag}.rows.jsonl`), '--report', join(dir, `${tag}.report.json`)];
    mock.resetStats();
    const first = capture();
    expect(await run(args('first'), first.io)).toBe(0);
    expect(mock.stats().requests).toBeGreaterThan(0);
    mock.resetStats();
    const again = capture();
    expect(await run(args('again'), again.io)).toBe(0);
    mock.responder = keep;
    expect(mock.stats().requests).toBe(0);
    expect(again.err.join('\n')).toMatch(/already in .*replies\.cache\.jsonl/);
    expect(await readFile(join(dir, 'again.rows.jsonl'), 'utf8')).toBe(await readFile(join(dir, 'first.rows.jsonl'), 'utf8'));
    const report = async (tag: string) => ({ ...JSON.parse(await readFile(join(dir, `${tag}.report.json`), 'utf8')), createdAt: undefined });
    expect(await report('again')).toEqual(await report('first'));
    const { settings: _a, ...firstSummary } = JSON.parse(first.out.join('\n'));
    const { settings: _b, ...againSummary } = JSON.parse(again.out.join('\n'));
    expect(againSummary).toEqual(firstSummary);
  });

  test('a wrong key stops the run: exit 1, the key not echoed', async () => {
    const c = capture();
    const code = await run(['--provider', 'vllm', '--base-url', `${mock.url}/v1`, '--model', 'm', '--dataset', dataset, '--runs', '1'], { ...c.io, env: { VLLM_API_KEY: 'sk-not-the-right-one-42' } });
    expect(code).toBe(1);
    expect(c.err.join('')).toMatch(/semece mc: stopped: The key was refused \(401\): check the key for vLLM.*\(auth, at .*\)\. Nothing was kept\./);
    // Without --cache nothing is kept, so there is nothing to resume.
    expect(c.err.join('')).not.toMatch(/resume/);
    expect(c.err.join('') + c.out.join('')).not.toContain('sk-not-the-right-one-42');
  });

  test('a bad --base-url is bad usage: exit 2 with the check\'s message, nothing sent, the password masked', async () => {
    const c = capture();
    mock.resetStats();
    const code = await run(['--provider', 'vllm', '--base-url', 'ftp://user:hunter2-secret@127.0.0.1/v1', '--model', 'm', '--dataset', dataset, '--runs', '1'], c.io);
    expect(code).toBe(2);
    expect(c.err.join('\n')).toMatch(/semece mc: --base-url/);
    expect(c.err.join('\n')).not.toContain('hunter2-secret');
    expect(mock.stats().requests).toBe(0);
  });

  test('the in-browser provider is refused with what it is for, not a missing address', async () => {
    const c = capture();
    const code = await run(['--provider', 'in-browser', '--model', 'tiny-causal-lm', '--dataset', dataset, '--runs', '1'], c.io);
    expect(code).toBe(2);
    expect(c.err.join('\n')).toMatch(/in-browser samples open answers only/);
    expect(c.err.join('\n')).not.toMatch(/base-url/);
  });
});
