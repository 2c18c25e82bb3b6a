import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { MockProviderServer } from '../../../mock/provider-server';
import run from '../../../../cli/commands/mc';
import { COLOUR_QUESTIONS, COLOUR_REPLIES } from './colour-questions';
import { parseReport } from '../../../../src/formats/report-import';

const DATASET = COLOUR_QUESTIONS;
const REPLIES = COLOUR_REPLIES;

let mock: MockProviderServer;
let dir: string;
let dataset: string;
beforeAll(async () => {
  mock = await MockProviderServer.start({ apiKey: 'mock-key' });
  dir = await mkdtemp(join(tmpdir(), 'semece-mc-report-'));
  dataset = join(dir, 'mc.jsonl');
  await writeFile(dataset, DATASET.map((d) => JSON.stringify(d)).join('\n') + '\n');
});
afterAll(async () => {
  await mock.close();
  await rm(dir, { recursive: true, force: true });
});

const io = (out: string[], err: string[]) => ({ out: (s: string) => out.push(s), err: (s: string) => err.push(s), env: { VLLM_API_KEY: 'mock-key' } });

async function importReport(file: string) {
  const text = await readFile(file, 'utf8');
  expect(text).not.toContain('mock-key');
  const r = parseReport(text);
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

describe('semece mc --report', () => {
  test('writes a baseline-only report the app imports, with the numbers of the run', async () => {
    mock.responder = (req, j) => REPLIES[/Question: (.*)/.exec(req.user)?.[1] ?? '']?.[j];
    const out: string[] = [];
    const err: string[] = [];
    const file = join(dir, 'baseline.json');
    const code = await run(['--provider', 'vllm', '--base-url', `${mock.url}/v1`, '--model', 'm', '--dataset', dataset, '--runs', '3', '--no-logprobs', '--report', file], io(out, err));
    expect(err.join('\n')).toBe('');
    expect(code).toBe(0);
    const doc = await importReport(file);
    const summary = JSON.parse(out.join('\n'));
    // A dataset outside the working folder is named by its base name: no absolute path is stored.
    expect(doc.dataset).toMatchObject({ name: 'mc', source: 'mc.jsonl' });
    expect(await readFile(file, 'utf8')).not.toContain(dir);
    expect(doc.settings.samples).toBe(0);
    expect(doc.dataset.questions).toBe(3);
    expect(doc.models).toHaveLength(1);
    const m = doc.models[0];
    expect(m.model).toBe('m');
    expect(m.questions).toEqual([]);
    const b = m.baseline!;
    expect(b.runs).toBe(3);
    expect(b.options).toEqual([4, 4, 2]);
    // Run 1, all right: (0.9−1)², (0.7−1)², (0.5−1)².
    expect(b.brier.perRun[0]).toBeCloseTo((0.01 + 0.09 + 0.25) / 3, 12);
    expect(b.baselineBrier).toBeCloseTo((0.1875 * 2 + 0.25) / 3, 15);
    expect(b.brier.mean).toBe(summary.brier.mean);
    expect(b.brier.sd).toBe(summary.brier.sd);
    expect(b.accuracy.perRun[0]).toBe(1);
    expect(b.failures).toEqual({ unparsable: 1, refusals: 0, requestFailed: 0, total: 1, perRun: [0, 1, 0] });
    expect(b.byCategory.map((c) => [c.category, c.questions])).toEqual([['easy', 2], ['hard', 1]]);
  });

  test('with --samples the report also holds the Sem-ECE rows with every signal scored', async () => {
    mock.responder = (req, j) => `{"answer": "${j % 4 === 3 ? 'B' : 'A'}", "probability": 80}`;
    const out: string[] = [];
    const err: string[] = [];
    const file = join(dir, 'full.json');
    const code = await run(['--provider', 'vllm', '--base-url', `${mock.url}/v1`, '--model', 'm', '--dataset', dataset, '--runs', '2', '--samples', '8', '--report', file], io(out, err));
    expect(code).toBe(0);
    const doc = await importReport(file);
    expect(doc.settings.samples).toBe(8);
    const m = doc.models[0];
    expect(m.questions.map((q) => q.id)).toEqual(['q1', 'q2', 'q3']);
    expect(m.questions[0]).toMatchObject({ n: 8, modalLabel: 'A', correct: 1 });
    expect(m.metrics.signals.sem1).toBeDefined();
    expect(m.metrics.signals.stated).toBeDefined();
    expect(m.baseline!.runs).toBe(2);
    expect(m.baseline!.options).toEqual([4, 4, 2]);
  });

  test('an unwritable report path exits 1 and says which file, before any request is paid for', async () => {
    mock.responder = () => '{"answer":"A","probability":50}';
    const requests = mock.stats().requests;
    const out: string[] = [];
    const err: string[] = [];
    const file = join(dir, 'no-such-dir', 'r.json');
    expect(await run(['--provider', 'vllm', '--base-url', `${mock.url}/v1`, '--model', 'm', '--dataset', dataset, '--runs', '1', '--no-logprobs', '--report', file], io(out, err))).toBe(1);
    expect(err.join('')).toContain(`cannot write --report ${file}`);
    expect(mock.stats().requests).toBe(requests);
  });
});
