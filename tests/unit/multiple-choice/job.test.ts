import { afterAll, beforeAll, expect, test } from 'vitest';
import { memoryStores, type MemoryStores as Stores } from '../../mock/memory-stores';
import { newRun } from '../../../src/pipeline/runner';
import { executeMultipleChoiceRun, mcRequestsPerModel } from '../../../src/multiple-choice/job';
import { keyId, type RunRecord, type RunSpec } from '../../../src/model/run-spec';
import type { ReportDocument } from '../../../src/model/report';
import { MockProviderServer, type ParsedRequest } from '../../mock/provider-server';
import type { OpenAiLogprobEntry } from '../../mock/wire-formats';

const QUESTIONS = [
  { id: 'q1', question: 'Colour of alpha?', answer: 'A', options: ['red', 'green', 'blue', 'black'], category: 'easy' },
  { id: 'q2', question: 'Colour of beta?', answer: 'B', options: ['red', 'green', 'blue', 'black'], category: 'easy' },
  { id: 'q3', question: 'Colour of gamma?', answer: 'C', options: ['yes', 'no', 'maybe'], category: 'hard' },
];
const MC = { runs: 2, seed: 3, samples: 4, logprobs: true };
/** Replies per question: 2 runs + 4 Sem-ECE samples + 1 greedy reply. */
const PER_QUESTION = MC.runs + MC.samples + 1;

/** OpenAI-format tokens of `{"answer": "<L>", "probability": …}` with alternatives at the letter. */
function letterTokens(letter: string, top: Record<string, number>): OpenAiLogprobEntry[] {
  const tok = (token: string): OpenAiLogprobEntry => ({ token, logprob: -0.01, top_logprobs: [{ token, logprob: -0.01 }] });
  return [tok('{"'), tok('answer'), tok('":'), tok(' "'), { token: letter, logprob: top[letter], top_logprobs: Object.entries(top).map(([token, logprob]) => ({ token, logprob })) }, tok('",'), tok(' "'), tok('probability'), tok('":'), tok('}')];
}

/** Reply j to a question: letters and probabilities that vary with j, one unreadable reply, logprobs where asked. */
function reply(req: ParsedRequest, j: number) {
  const q = QUESTIONS.find((x) => req.user.includes(`Question: ${x.question}`));
  if (!q) return undefined;
  if (q.id === 'q2' && j === 1) return 'I cannot know that.';
  const letters = q.options.length === 3 ? ['A', 'B', 'C'] : ['A', 'B', 'C', 'D'];
  const letter = letters[(j * (q.id.charCodeAt(1) + 1)) % letters.length];
  const top = Object.fromEntries(letters.map((l, i) => [l, l === letter ? -0.2 : -1.5 - i / 2]));
  return { text: `{"answer": "${letter}", "probability": ${40 + ((j * 17) % 60)}}`, logprobs: letterTokens(letter, top) };
}

let mock: MockProviderServer;
beforeAll(async () => {
  mock = await MockProviderServer.start({ apiKey: 'mock-key', questions: QUESTIONS.map((q) => ({ match: `Question: ${q.question}`, id: q.id, answers: { A: 1 } })) }, { responder: reply });
});
afterAll(() => mock?.close());

const spec = (): RunSpec => ({
  title: 'multiple choice, cached',
  dataset: { name: 'colours', source: 'test', questions: QUESTIONS },
  models: [{ kind: 'openai', preset: 'vllm', baseUrl: `${mock.url}/v1`, model: 'mock-model' }],
  sampling: { n: 1, temperature: 1, maxTokens: 64, prompt: '{question}', concurrency: 4 },
  clustering: { method: 'exact' },
  grading: { method: 'alias' },
  mc: MC,
});
const keys = () => ({ [keyId(spec().models[0])]: 'mock-key' });

async function execute(s: Stores, runId: string, signal = new AbortController().signal, onProgress?: (run: RunRecord) => void): Promise<RunRecord> {
  return executeMultipleChoiceRun(runId, keys(), { runs: s.runs, samples: s.samples, onProgress: (_, run) => onProgress?.(run) }, signal);
}

async function started(s: Stores): Promise<string> {
  const run = newRun(spec());
  await s.runs.saveRun(run);
  return run.id;
}

/** The report without the moment it was made. */
const content = (doc: ReportDocument | undefined) => doc && { ...doc, createdAt: undefined };

const SLOTS = mcRequestsPerModel(QUESTIONS.length, MC);

test('a repeated multiple-choice run sends no request and makes the same report', async () => {
  const s = memoryStores();
  mock.resetStats();
  const firstId = await started(s);
  const first = await execute(s, firstId);
  expect(first.status).toBe('done');
  expect(mock.stats().served).toEqual({ q1: PER_QUESTION, q2: PER_QUESTION, q3: PER_QUESTION });
  expect(first.progress.stages.sample).toMatchObject({ status: 'done', total: SLOTS, cached: 0 });
  expect(first.progress.requests.done).toBe(mock.stats().requests);
  const firstReport = await s.runs.getReport(firstId);
  expect(firstReport!.models[0].baseline!.runs).toBe(2);
  expect(firstReport!.models[0].questions).toHaveLength(3);
  expect(firstReport!.models[0].questions.some((q) => q.signals?.logprob !== undefined)).toBe(true);

  mock.resetStats();
  const secondId = await started(s);
  const second = await execute(s, secondId);
  expect(second.status).toBe('done');
  expect(mock.stats().requests).toBe(0);
  expect(second.progress.requests).toMatchObject({ done: 0, failed: 0 });
  expect(second.progress.stages.sample).toMatchObject({ status: 'done', done: SLOTS, total: SLOTS, cached: SLOTS });
  expect(second.progress.tokens).toEqual({ input: 0, output: 0 });
  expect(content(await s.runs.getReport(secondId))).toEqual(content(firstReport));
});

test('a paused multiple-choice run resumes where it stopped: nothing asked twice, the report of an uninterrupted run', async () => {
  const fresh = memoryStores();
  mock.resetStats();
  const wholeId = await started(fresh);
  expect((await execute(fresh, wholeId)).status).toBe('done');
  const whole = await fresh.runs.getReport(wholeId);

  const s = memoryStores();
  mock.resetStats();
  const runId = await started(s);
  const pause = new AbortController();
  // Paused once the first run has every reply: the second run's requests are never sent.
  const paused = await execute(s, runId, pause.signal, (run) => {
    if ((run.progress.mc?.runsDone ?? 0) >= 1 && !pause.signal.aborted) pause.abort('pause');
  });
  expect(paused.status).toBe('paused');
  expect(mock.stats().served).toEqual({ q1: 1, q2: 1, q3: 1 });
  const before = paused.progress.requests.done;

  const resumed = await execute(s, runId);
  expect(resumed.status).toBe('done');
  // Each question's replies were each served once over both executions: none was asked for again.
  expect(mock.stats().served).toEqual({ q1: PER_QUESTION, q2: PER_QUESTION, q3: PER_QUESTION });
  expect(resumed.progress.stages.sample.cached).toBe(QUESTIONS.length);
  // Requests carry over a resume, as in an open-answer run.
  expect(resumed.progress.requests.done).toBe(before + SLOTS - QUESTIONS.length);
  expect(content(await s.runs.getReport(runId))).toEqual(content(whole));
});

test("a multiple-choice run is scored with its spec's scoring settings, as an open-answer run is", async () => {
  const s = memoryStores();
  const scoring = { sem2: { R: 4, seed: 5, selection: 'half' as const }, bins: 5, bootstrap: { B: 40, seed: 11 } };
  const run = newRun({ ...spec(), scoring });
  await s.runs.saveRun(run);
  expect((await execute(s, run.id)).status).toBe('done');
  const report = (await s.runs.getReport(run.id))!;
  expect(report.settings).toMatchObject(scoring);
  // A spec without scoring settings is scored with the defaults (SCORING_DEFAULTS).
  const plain = await started(s);
  await execute(s, plain);
  expect((await s.runs.getReport(plain))!.settings).toMatchObject({ bins: 10, bootstrap: { B: 1000, seed: 7 } });
});
