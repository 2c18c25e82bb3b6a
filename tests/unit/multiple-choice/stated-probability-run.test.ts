import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { MockProviderServer, type ParsedRequest } from '../../mock/provider-server';
import type { OpenAiLogprobEntry } from '../../mock/wire-formats';
import { createProvider } from '../../../src/providers/create-provider';
import { toMcQuestion, type McQuestion } from '../../../src/multiple-choice/prompt';
import { MC_DEFAULTS, runMcBaseline } from '../../../src/multiple-choice/stated-probability-run';

function mcq(id: string, question: string, answer: string, category: string): McQuestion {
  const r = toMcQuestion({ id, question, answer, options: ['red', 'green', 'blue', 'black'], category });
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

// Gold: q1 A, q2 B, q3 C, q4 D.
const QUESTIONS = [
  mcq('q1', 'Colour of alpha?', 'A', 'easy'),
  mcq('q2', 'Colour of beta?', 'B', 'easy'),
  mcq('q3', 'Colour of gamma?', 'C', 'hard'),
  mcq('q4', 'Colour of delta?', 'D', 'hard'),
];

/** Scripted replies per question, one per run (the mock numbers a question's replies 0, 1, 2 …). */
const SCRIPT: Record<string, string[]> = {
  'Colour of alpha?': ['{"answer": "A", "probability": 90}', '```json\n{"answer": "A", "probability": "80%"}\n```', '{"answer":"B","probability":60}'],
  'Colour of beta?': ['{"answer": "B", "probability": 70}', '{"answer": "C", "probability": 50}', '{"answer":"(B)","probability":100}'],
  'Colour of gamma?': ['{"answer": "A", "probability": 40}', 'I cannot know that.', '{"answer":"C","probability":30}'],
  'Colour of delta?': ['{"answer": "D", "probability": 100}', '{"answer": "D", "probability": 100}', 'Sure: {"answer": "Z", "probability": 10}'],
};

/** OpenAI-format tokens for `{"answer": "<L>", "probability": 80}` with alternatives at the letter. */
function letterTokens(letter: string, top: Record<string, number>): OpenAiLogprobEntry[] {
  const tok = (token: string, logprob = -0.01): OpenAiLogprobEntry => ({ token, logprob, top_logprobs: [{ token, logprob }] });
  return [
    tok('{"'), tok('answer'), tok('":'), tok(' "'),
    { token: letter, logprob: top[letter], top_logprobs: Object.entries(top).map(([token, logprob]) => ({ token, logprob })) },
    tok('",'), tok(' "'), tok('probability'), tok('":'), tok(' '), tok('80'), tok('}'),
  ];
}

function questionOf(req: ParsedRequest): string {
  return /Question: (.*)/.exec(req.user)?.[1] ?? '';
}

let mock: MockProviderServer;
beforeAll(async () => {
  mock = await MockProviderServer.start({ apiKey: 'mock-key' });
});
afterAll(async () => {
  await mock.close();
});

const provider = (preset: string, kind: 'openai' | 'anthropic' = 'openai', apiKey = 'mock-key') =>
  createProvider({ kind, preset, baseUrl: `${mock.url}/v1`, model: 'mock-model', apiKey, maxRetries: 0 });

describe('repeated multiple-choice runs against the loopback mock', () => {
  test('Brier per run, mean ± SD, categories, fallbacks', async () => {
    mock.configure({ questions: [] });
    mock.resetStats();
    mock.responder = (req, j) => SCRIPT[questionOf(req)]?.[j];
    const r = await runMcBaseline(provider('vllm'), QUESTIONS, { ...MC_DEFAULTS, logprobs: false });
    if (!r.ok) throw new Error(r.error.message);
    const { perRun, summary, rows } = r.value;
    expect(rows).toHaveLength(12);
    // Run 1: q1 (0.9−1)², q2 (0.7−1)², q3 (0.4−0)², q4 (1−1)²
    expect(perRun[0].brier).toBeCloseTo((0.01 + 0.09 + 0.16 + 0) / 4, 15);
    expect(perRun[0].accuracy).toBe(0.75);
    // Run 2: q3 refused → uniform guess with p = 0.25
    const q3run2 = rows.find((row) => row.id === 'q3' && row.run === 1)!;
    expect(q3run2).toMatchObject({ fallback: 'refusal', probability: 0.25, method: 'uniform-fallback' });
    expect(perRun[1].brier).toBeCloseTo((0.04 + 0.25 + (0.25 - q3run2.correct) ** 2 + 0) / 4, 15);
    // Run 3: q4 answered a letter that is not an option → fallback
    const q4run3 = rows.find((row) => row.id === 'q4' && row.run === 2)!;
    expect(q4run3.fallback).toBe('letter-out-of-range');
    expect(perRun[2].brier).toBeCloseTo((0.36 + 0 + 0.49 + (0.25 - q4run3.correct) ** 2) / 4, 15);
    expect(summary.fallbacks).toMatchObject({ total: 2, perRun: [0, 1, 1], reasons: { refusal: 1, 'letter-out-of-range': 1 } });
    const b = perRun.map((p) => p.brier);
    const mean = (b[0] + b[1] + b[2]) / 3;
    expect(summary.brier.mean).toBeCloseTo(mean, 15);
    expect(summary.brier.sd).toBeCloseTo(Math.sqrt(b.reduce((t, x) => t + (x - mean) ** 2, 0) / 2), 15);
    expect(summary.baseline).toBe(0.1875);
    expect(summary.byCategory.easy.brier.runs[0]).toBeCloseTo((0.01 + 0.09) / 2, 15);
    expect(summary.byCategory.hard.questions).toBe(2);
    expect(r.value.logprob).toMatchObject({ rows: 0, absence: 'Log-probabilities were not asked for.' });
  });

  test('logprob confidence from OpenAI-format top_logprobs', async () => {
    mock.resetStats();
    mock.configure({ questions: [] });
    const top = { A: -0.1, B: -2.5, C: -3.0, D: -4.0 };
    mock.responder = (req) => ({ text: '{"answer": "A", "probability": 80}', logprobs: letterTokens('A', top) });
    const r = await runMcBaseline(provider('vllm'), QUESTIONS.slice(0, 2), { ...MC_DEFAULTS, runs: 1 });
    if (!r.ok) throw new Error(r.error.message);
    const z = Math.exp(-0.1) + Math.exp(-2.5) + Math.exp(-3.0) + Math.exp(-4.0);
    for (const row of r.value.rows) expect(row.logprob).toBeCloseTo(Math.exp(-0.1) / z, 12);
    expect(r.value.logprob.rows).toBe(2);
    expect(r.value.logprob.absence).toBeNull();
    const p = Math.exp(-0.1) / z;
    // q1 is right (A), q2 wrong: Brier of the logprob signal = ((p−1)² + p²) / 2
    expect(r.value.logprob.brier!.mean).toBeCloseTo(((p - 1) ** 2 + p ** 2) / 2, 12);
    expect(r.value.effective).toMatchObject({ logprobs: true, topLogprobs: 20 });
  });

  test('a provider without logprobs: the signal is absent and the reason given', async () => {
    mock.configure({ questions: [] });
    mock.responder = () => ({ text: '{"answer": "A", "probability": 80}', logprobs: letterTokens('A', { A: -0.1 }) });
    const r = await runMcBaseline(provider('anthropic', 'anthropic'), QUESTIONS.slice(0, 1), { ...MC_DEFAULTS, runs: 1 });
    if (!r.ok) throw new Error(r.error.message);
    expect(r.value.rows[0].logprob).toBeNull();
    expect(r.value.logprob.absence).toMatch(/Anthropic/);
    expect(r.value.summary.brier.mean).toBeCloseTo(0.04, 15);
  });

  test('a wrong key stops the run with a typed error that does not contain the key', async () => {
    mock.responder = undefined;
    const r = await runMcBaseline(provider('vllm', 'openai', 'sk-wrong-key-123456789'), QUESTIONS, { ...MC_DEFAULTS, runs: 1 });
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.kind).toBe('auth');
      expect(r.error.where).toMatch(/run 1/);
      expect(JSON.stringify(r.error)).not.toContain('sk-wrong-key-123456789');
    }
  });

  test('runs done counts completed runs only: every run of a good key, none when run 1 stops on a refused key', async () => {
    mock.responder = (req, j) => SCRIPT[questionOf(req)]?.[j];
    const good: number[] = [];
    const ok = await runMcBaseline(provider('vllm'), QUESTIONS, { ...MC_DEFAULTS, runs: 3, logprobs: false, onRunDone: (n) => good.push(n) });
    expect(ok.ok).toBe(true);
    expect(good).toEqual([1, 2, 3]);

    mock.responder = undefined;
    const refused: number[] = [];
    let replies = 0;
    const r = await runMcBaseline(provider('vllm', 'openai', 'sk-wrong-key-123456789'), QUESTIONS, {
      ...MC_DEFAULTS,
      runs: 3,
      onProgress: () => replies++,
      onRunDone: (n) => refused.push(n),
    });
    expect(r.ok).toBe(false);
    // Every question of run 1 was read (as a failure), yet no run completed.
    expect(replies).toBe(QUESTIONS.length);
    expect(refused).toEqual([]);
  });
});
