import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { memoryStores, type MemoryStores as Stores } from '../../mock/memory-stores';
import { executeRun, newRun, type RunnerDeps } from '../../../src/pipeline/runner';
import { realStages } from '../../../src/workers/real-stages';
import { keyId, type RunKeys, type RunSpec } from '../../../src/model/run-spec';
import type { RunnerStages, ScoreInput } from '../../../src/pipeline/stage-ports';
import type { ReportDocument } from '../../../src/model/report';
import { scoreRun } from '../../../src/pipeline/run-scoring';
import { MockProviderServer } from '../../mock/provider-server';
import { lowercaseJudge } from '../../mock/lowercase-judge';
import type { StageCache, StoredClustering, StoredGrade } from '../../../src/model/stage-cache';

const SECRET = 'sk-test-DO-NOT-STORE-0123456789';
const QUESTIONS: { id: string; question: string; answer: string; answers: Record<string, number> }[] = [
  { id: 'q0', question: 'What is the capital of France?', answer: 'Paris', answers: { Paris: 1 } },
  { id: 'q1', question: 'What is the capital of Spain?', answer: 'Madrid', answers: { Madrid: 0.5, 'Madrid, Spain': 0.5 } },
  { id: 'q2', question: 'What is the capital of Italy?', answer: 'Rome', answers: { Milan: 1 } },
];


let keyed: MockProviderServer;
let open: MockProviderServer;
beforeAll(async () => {
  const questions = QUESTIONS.map((q) => ({ match: q.question, id: q.id, answers: q.answers }));
  keyed = await MockProviderServer.start({ questions, apiKey: SECRET }, { responder: lowercaseJudge });
  open = await MockProviderServer.start({ questions, apiKey: null }, { responder: lowercaseJudge });
});
afterAll(async () => {
  await keyed?.close();
  await open?.close();
});

const modelOn = (mock: MockProviderServer, preset = 'openai', model = 'gpt-4o-mini') => ({ kind: 'openai' as const, preset, baseUrl: `${mock.url}/v1`, model });

function spec(over: Partial<RunSpec> = {}): RunSpec {
  return {
    title: 'test run',
    dataset: { name: 'capitals', source: 'test', questions: QUESTIONS.map(({ id, question, answer }) => ({ id, question, answer })) },
    models: [modelOn(keyed)],
    sampling: { n: 6, temperature: 1, maxTokens: 32, prompt: 'Question: {question}\nEnd with "Answer: …" and "Confidence: …%".', concurrency: 2 },
    clustering: { method: 'exact' },
    grading: { method: 'alias' },
    ...over,
  };
}

/** Counts what each stage is asked to do; the report lists each question's grade so tests can read it. */
function counted(log: { clusterCalls: number; gradeCalls: number; scored: number }): RunnerStages {
  const score = (input: ScoreInput): ReportDocument => {
    log.scored++;
    return scoreRun(input, { samples: 'answers', B: 50, smooth: false });
  };
  const real = realStages({ score });
  return {
    ...real,
    clusterer: (s, k) => {
      const c = real.clusterer(s, k);
      return { method: c.method, cluster: (...a) => (log.clusterCalls++, c.cluster(...a)) };
    },
    grader: (s, k) => {
      const g = real.grader(s, k);
      return { method: g.method, grade: (...a) => (log.gradeCalls++, g.grade(...a)) };
    },
  };
}

const newLog = () => ({ clusterCalls: 0, gradeCalls: 0, scored: 0 });
const setup = async (): Promise<Stores> => memoryStores();
const deps = (s: Stores, impl: RunnerStages, extra: Partial<RunnerDeps> = {}): RunnerDeps => ({ runs: s.runs, samples: s.samples, stageCache: s.stages, stages: impl, ...extra });
const keys = (): RunKeys => ({ [keyId(modelOn(keyed))]: SECRET });
const go = () => new AbortController().signal;
const served = (mock: MockProviderServer) => mock.stats().served;

describe('executeRun against the loopback mock', () => {
  test('walks a run from dataset to a saved report, requesting each sample once', async () => {
    keyed.resetStats();
    const s = await setup();
    const run = newRun(spec());
    await s.runs.saveRun(run);
    const done = await executeRun(run.id, keys(), deps(s, counted(newLog())), go());
    expect(done.status).toBe('done');
    expect(served(keyed)).toEqual({ q0: 6, q1: 6, q2: 6 });
    expect(done.progress.samples).toEqual({ done: 18, total: 18 });
    expect(done.progress.tokens.input).toBeGreaterThan(0);
    expect(done.effective?.['openai/gpt-4o-mini']).toMatchObject({ n: 6, temperature: 1 });
    const report = await s.runs.getReport(run.id);
    expect(report?.models[0].questions.map((q) => q.grade)).toEqual(['CORRECT', 'CORRECT', 'INCORRECT']);
    // Scored by the real score stage: q0 always answers Paris (Sem1 = 1), q2 always Milan.
    expect(report?.models[0].questions.map((q) => q.sem1)).toEqual([1, expect.any(Number), 1]);
    expect(report?.models[0].metrics.accuracy).toBeCloseTo(2 / 3, 12);
  });

  test('a paused run keeps what was in flight; on resume every question ends with exactly n samples, none served twice', async () => {
    keyed.resetStats();
    keyed.configure({ latencyMs: 100, maxN: { openai: 2 } });
    const s = await setup();
    const run = newRun(spec({ sampling: { ...spec().sampling, n: 20, concurrency: 3 } }));
    await s.runs.saveRun(run);
    const ctl = new AbortController();
    const first = await executeRun(run.id, keys(), deps(s, counted(newLog()), { onProgress: (p) => p.samples.done >= 8 && ctl.abort('pause') }), ctl.signal);
    expect(first.status).toBe('paused');
    const before = Object.values(served(keyed)).reduce((a, b) => a + b, 0);
    expect(before).toBeLessThan(60);
    const second = await executeRun(run.id, keys(), deps(s, counted(newLog())), go());
    keyed.configure({ latencyMs: 0, maxN: {} });
    expect(second.status).toBe('done');
    expect(served(keyed)).toEqual({ q0: 20, q1: 20, q2: 20 });
    expect(second.progress.stages.sample).toMatchObject({ done: 60, total: 60 });
  });

  test('changing the clusterer reclusters, regrades and rescores, but samples nothing again', async () => {
    keyed.resetStats();
    const s = await setup();
    const log = newLog();
    // Every read and write of the stage cache, by store.
    const touched = { clusterings: 0, grades: 0 };
    const stages: StageCache = Object.assign(Object.create(s.stages) as StageCache, {
      getClusterings: (k: string[]) => ((touched.clusterings += k.length), s.stages.getClusterings(k)),
      putClusterings: (items: StoredClustering[]) => ((touched.clusterings += items.length), s.stages.putClusterings(items)),
      getGrades: (k: string[]) => ((touched.grades += k.length), s.stages.getGrades(k)),
      putGrades: (items: StoredGrade[]) => ((touched.grades += items.length), s.stages.putGrades(items)),
    });
    const runOnce = async (over: Partial<RunSpec>) => {
      const r = newRun(spec(over));
      await s.runs.saveRun(r);
      return executeRun(r.id, keys(), deps(s, counted(log), { stageCache: stages }), go());
    };
    const first = await runOnce({});
    expect([log.clusterCalls, log.gradeCalls, log.scored]).toEqual([3, 3, 1]);
    const requestsAfterSampling = keyed.stats().requests;

    // Exact clustering and alias grading are cheaper than their cache: computed again, identically, and the cache never touched.
    const again = await runOnce({});
    expect([log.clusterCalls, log.gradeCalls, log.scored]).toEqual([6, 6, 2]);
    expect(again.progress.stages.cluster).toMatchObject({ status: 'done', done: 3, cached: 0 });
    expect(again.progress.stages.grade).toMatchObject({ status: 'done', done: 3, cached: 0 });
    expect(touched).toEqual({ clusterings: 0, grades: 0 });
    const questionsOf = async (id: string) => (await s.runs.getReport(id))?.models[0].questions.map(({ id, grade, sem1, sem2 }) => ({ id, grade, sem1, sem2 }));
    expect(await questionsOf(again.id)).toEqual(await questionsOf(first.id));
    expect(keyed.stats().requests).toBe(requestsAfterSampling);

    open.resetStats();
    const judge = { method: 'judge' as const, judge: modelOn(open, 'vllm', 'judge-model') };
    const judged = await runOnce({ clustering: judge });
    expect(judged.status).toBe('done');
    expect([log.clusterCalls, log.gradeCalls, log.scored]).toEqual([9, 9, 3]);
    // Only judge calls went out (to the judge's server, at most one per question): no sample was requested again.
    expect(keyed.stats().requests).toBe(requestsAfterSampling);
    const judgeRequests = open.stats().requests;
    expect(judgeRequests).toBeGreaterThan(0);
    expect(judgeRequests).toBeLessThanOrEqual(3);
    // The judge's clusterings were looked up (3 misses) and stored (3); grading by alias still touches nothing.
    expect(touched).toEqual({ clusterings: 6, grades: 0 });

    // The judge is cached: the same clustering again asks it nothing and clusters nothing.
    const rejudged = await runOnce({ clustering: judge });
    expect(rejudged.status).toBe('done');
    expect(rejudged.progress.stages.cluster.cached).toBe(3);
    expect([log.clusterCalls, log.gradeCalls, log.scored]).toEqual([9, 12, 4]);
    expect(open.stats().requests).toBe(judgeRequests);
    expect(touched).toEqual({ clusterings: 9, grades: 0 });
  });

  test('cancel stops a run as cancelled; a bad key fails it with the cause, and the key appears nowhere', async () => {
    const s = await setup();
    const run = newRun(spec());
    await s.runs.saveRun(run);
    const cancel = new AbortController();
    cancel.abort('cancel');
    expect((await executeRun(run.id, keys(), deps(s, counted(newLog())), cancel.signal)).status).toBe('cancelled');
    const wrongKey = 'sk-wrong-key-abcdefghijklmnop';
    const failed = await executeRun(run.id, { [keyId(modelOn(keyed))]: wrongKey }, deps(s, counted(newLog())), go());
    expect(failed.status).toBe('failed');
    expect(failed.error?.kind).toBe('auth');
    expect(JSON.stringify(failed)).not.toContain(wrongKey);
  });

  test('an error quoting the key in any form (base64 of Bearer, a cut fragment) is stored and shown scrubbed', async () => {
    const s = await setup();
    const run = newRun(spec());
    await s.runs.saveRun(run);
    const bearer = Buffer.from(`Bearer ${SECRET}`).toString('base64');
    const shown: string[] = [];
    const leaky: RunnerStages = {
      ...counted(newLog()),
      sample: async (input) => {
        input.onError?.({ kind: 'network', message: `proxy echoed Authorization: ${bearer}` });
        return { ok: false, error: { kind: 'auth', message: `key ${SECRET.slice(4, 20)}… refused`, where: encodeURIComponent(SECRET) } };
      },
    };
    const failed = await executeRun(run.id, keys(), deps(s, leaky, { onProgress: (p) => shown.push(JSON.stringify(p.errors)) }), go());
    expect(failed.status).toBe('failed');
    expect(failed.error?.message).toBe('key [key]… refused');
    const stored = JSON.stringify(await s.runs.getRun(run.id));
    for (const text of [stored, ...shown]) {
      expect(text).not.toContain(SECRET.slice(4, 20));
      expect(text).not.toContain(bearer.slice(12, 30));
    }
    expect(stored).toContain('proxy echoed Authorization: QmVhcmVy');
  });

  test('the failure reason of a question that quotes the key reaches the report and the run scrubbed', async () => {
    const s = await setup();
    const run = newRun(spec());
    await s.runs.saveRun(run);
    const real = counted(newLog());
    const quoting: RunnerStages = {
      ...real,
      sample: async (input) => {
        const r = await real.sample(input);
        if (r.ok) r.value.failed.push({ id: 'q-extra', reason: `the provider refused this question: echoed ${encodeURIComponent(SECRET).slice(2, 22)}` });
        return r;
      },
    };
    const done = await executeRun(run.id, keys(), deps(s, quoting), go());
    expect(done.status).toBe('done');
    const report = await s.runs.getReport(run.id);
    const excluded = report!.models[0].excludedQuestions.find((x) => x.id === 'q-extra');
    expect(excluded?.reason).toBe('the provider refused this question: echoed [key]');
    expect(done.excluded?.find((x) => x.id === 'q-extra')?.reason).toBe('the provider refused this question: echoed [key]');
  });

  test('each key goes only to its own provider and never into the stored run or report', async () => {
    keyed.resetStats();
    open.resetStats();
    const s = await setup();
    const run = newRun(spec({ models: [modelOn(keyed), modelOn(open, 'vllm', 'local-model')] }));
    await s.runs.saveRun(run);
    const done = await executeRun(run.id, keys(), deps(s, counted(newLog())), go());
    expect(done.status).toBe('done');
    expect(keyed.stats().lastRequest?.headers).toContain('authorization');
    expect(open.stats().lastRequest?.headers).not.toContain('authorization');
    expect(served(open)).toEqual({ q0: 6, q1: 6, q2: 6 });
    const stored = JSON.stringify([...s.runs.runs.values()]) + JSON.stringify([...s.runs.reports.values()]);
    expect(stored).not.toContain(SECRET);
    expect((await s.runs.getReport(run.id))?.models.map((m) => m.model)).toEqual(['openai/gpt-4o-mini', 'vllm/local-model']);
  });

  test('a grade override survives rescoring: the report flags it and its accuracy follows it', async () => {
    const s = await setup();
    const run = newRun(spec());
    await s.runs.saveRun(run);
    await executeRun(run.id, keys(), deps(s, counted(newLog())), go());
    const before = (await s.runs.getReport(run.id))!.models[0];
    expect(before.questions.find((q) => q.id === 'q2')?.grade).toBe('INCORRECT');
    await s.runs.setGradeOverride({ runId: run.id, model: 'openai/gpt-4o-mini', questionId: 'q2', grade: 'CORRECT' });
    await executeRun(run.id, keys(), deps(s, counted(newLog())), go());
    const report = await s.runs.getReport(run.id);
    const q2 = report?.models[0].questions.find((q) => q.id === 'q2');
    expect(q2).toMatchObject({ grade: 'CORRECT', overridden: true });
    expect(report?.models[0].metrics.accuracy).toBeCloseTo(before.metrics.accuracy + 1 / 3, 12);
  });
});

describe('questions that fail, and stages that fail for every question', () => {
  const withQuestions = (refuse: Record<string, string>) =>
    QUESTIONS.map((q) => ({ match: q.question, id: q.id, answers: q.answers, ...(refuse[q.id] ? { refuse: refuse[q.id] } : {}) }));
  const MORE = Array.from({ length: 5 }, (_, i) => ({ id: `m${i}`, question: `What is ${i} plus ${i}?`, answer: String(2 * i) }));

  test('a question the provider refuses (400) is failed with its message and left out; the others are scored; retrying asks only for it', async () => {
    keyed.resetStats();
    keyed.configure({ questions: withQuestions({ q1: 'This prompt violates the content policy.' }) });
    try {
      const s = await setup();
      const run = newRun(spec());
      await s.runs.saveRun(run);
      const done = await executeRun(run.id, keys(), deps(s, counted(newLog())), go());
      expect(done.status).toBe('done');
      expect(served(keyed)).toEqual({ q0: 6, q2: 6 });
      const report = (await s.runs.getReport(run.id))!;
      expect(report.models[0].questions.map((q) => q.id)).toEqual(['q0', 'q2']);
      expect(report.models[0].excludedQuestions).toEqual([{ id: 'q1', reason: expect.stringMatching(/^the provider refused this question: .*content policy/) }]);
      expect(done.excluded).toEqual([{ model: 'openai/gpt-4o-mini', id: 'q1', reason: report.models[0].excludedQuestions[0].reason }]);
      expect(done.progress.errors.some((e) => e.kind === 'question-failed' && /question q1/.test(e.where ?? ''))).toBe(true);
      // The policy no longer refuses it: running the done run again asks for q1 only.
      keyed.configure({ questions: withQuestions({}) });
      const retried = await executeRun(run.id, keys(), deps(s, counted(newLog())), go());
      expect(retried.status).toBe('done');
      expect(served(keyed)).toEqual({ q0: 6, q1: 6, q2: 6 });
      expect(retried.excluded).toBeUndefined();
      expect((await s.runs.getReport(run.id))!.models[0].questions).toHaveLength(3);
    } finally {
      keyed.configure({ questions: withQuestions({}) });
    }
  });

  test('the first questions all refused before any success: the settings are the likely cause, and the run stops at once', async () => {
    keyed.resetStats();
    // Every prompt refused the same way, as a setting the model does not take would be.
    keyed.configure({ questions: MORE.map((q) => ({ match: q.question, id: q.id, answers: { x: 1 }, refuse: "Unsupported value: 'max_tokens' is too small." })) });
    try {
      const s = await setup();
      const run = newRun(spec({ dataset: { name: 'sums', source: 'test', questions: MORE }, sampling: { ...spec().sampling, concurrency: 1 } }));
      await s.runs.saveRun(run);
      const failed = await executeRun(run.id, keys(), deps(s, counted(newLog())), go());
      expect(failed.status).toBe('failed');
      expect(failed.error?.message).toMatch(/^The first 3 question\(s\) were all refused, so the cause is likely the settings or the model rather than the questions: .*max_tokens/);
      // Three questions asked, not all five (the first may be asked once more with one reply per
      // request, to tell a refused n from a refused prompt).
      expect(keyed.stats().byStatus[400]).toBeGreaterThanOrEqual(3);
      expect(keyed.stats().byStatus[400]).toBeLessThanOrEqual(4);
    } finally {
      keyed.configure({ questions: withQuestions({}) });
    }
  });

  test('a clusterer that fails for every question fails the run with its cause instead of a report of nothing', async () => {
    const s = await setup();
    const run = newRun(spec());
    await s.runs.saveRun(run);
    const broken: RunnerStages = {
      ...counted(newLog()),
      clusterer: () => ({ method: 'exact', cluster: async () => ({ ok: false, error: { kind: 'judge', message: 'the judge gave no valid partition' } }) }),
    };
    const failed = await executeRun(run.id, keys(), deps(s, broken), go());
    expect(failed.status).toBe('failed');
    expect(failed.error?.message).toMatch(/^Clustering failed for every question, so there is nothing to score\. First cause: the judge gave no valid partition/);
    expect(await s.runs.getReport(run.id)).toBeUndefined();
  });

  test("a question whose grading fails is listed once, with the grader's reason", async () => {
    const s = await setup();
    const run = newRun(spec());
    await s.runs.saveRun(run);
    const real = counted(newLog());
    const picky: RunnerStages = {
      ...real,
      grader: (g, k) => {
        const inner = real.grader(g, k);
        return { method: inner.method, grade: (input, signal) => (input.id === 'q1' ? Promise.resolve({ ok: false, error: { kind: 'judge', message: 'the judge answered "maybe"' } }) : inner.grade(input, signal)) };
      },
    };
    const done = await executeRun(run.id, keys(), deps(s, picky), go());
    expect(done.status).toBe('done');
    const report = (await s.runs.getReport(run.id))!;
    expect(report.models[0].excludedQuestions).toEqual([{ id: 'q1', reason: 'grading failed: the judge answered "maybe"' }]);
  });

  test('the run remembers which providers had a key (their ids, never the key)', async () => {
    const s = await setup();
    const run = newRun(spec());
    await s.runs.saveRun(run);
    const done = await executeRun(run.id, keys(), deps(s, counted(newLog())), go());
    expect(done.keyed).toEqual([keyId(modelOn(keyed))]);
    expect(JSON.stringify(await s.runs.getRun(run.id))).not.toContain(SECRET);
  });
});

describe('partial reports', () => {
  test('a paused run is scored on its complete questions without sampling: labelled partial with counts, the run stays paused; resuming makes the full report', async () => {
    keyed.resetStats();
    const s = await setup();
    // Two of the three questions already sampled (the same keys a three-question run uses).
    const first = newRun(spec({ dataset: { ...spec().dataset, questions: spec().dataset.questions.slice(0, 2) } }));
    await s.runs.saveRun(first);
    await executeRun(first.id, keys(), deps(s, counted(newLog())), go());
    const run = { ...newRun(spec()), status: 'paused' as const };
    await s.runs.saveRun(run);
    const before = structuredClone(served(keyed));

    const partial = await executeRun(run.id, keys(), deps(s, counted(newLog())), go(), { partial: true });
    expect(partial.status).toBe('paused');
    expect(served(keyed)).toEqual(before);
    expect(partial.partialReport).toEqual({ questions: 2, of: 3, status: 'paused' });
    const report = (await s.runs.getReport(run.id))!;
    expect(report.partial).toEqual({ questions: 2, of: 3, status: 'paused' });
    expect(report.models[0].questions.map((q) => q.id)).toEqual(['q0', 'q1']);
    expect(report.models[0].excludedQuestions).toEqual([]);

    const done = await executeRun(run.id, keys(), deps(s, counted(newLog())), go());
    expect(done.status).toBe('done');
    expect(done.partialReport).toBeUndefined();
    const full = (await s.runs.getReport(run.id))!;
    expect(full.partial).toBeUndefined();
    expect(full.models[0].questions).toHaveLength(3);
  });

  test('a partial report of a run with no complete question leaves the run as it was and says why', async () => {
    const s = await setup();
    const run = { ...newRun(spec({ dataset: { name: 'new', source: 'test', questions: [{ id: 'z1', question: 'Never asked?', answer: 'no' }] } })), status: 'cancelled' as const };
    await s.runs.saveRun(run);
    const after = await executeRun(run.id, keys(), deps(s, counted(newLog())), go(), { partial: true });
    expect(after.status).toBe('cancelled');
    expect(after.partialError?.message).toMatch(/No question has all its samples yet/);
    expect(await s.runs.getReport(run.id)).toBeUndefined();
  });
});

describe('counters that add up', () => {
  test('after a reload that lost the last checkpoints, requests, tokens and cost are read back from what is stored: the same as a run never interrupted', async () => {
    // One reply per request: each sample is one request with tokens fixed by its question and index.
    keyed.configure({ maxN: { openai: 1 } });
    const prices = { 'openai/gpt-4o-mini': { input: 0.15, output: 0.6 } };
    try {
      keyed.resetStats();
      const a = await setup();
      const whole = newRun(spec());
      await a.runs.saveRun(whole);
      const straight = await executeRun(whole.id, keys(), deps(a, counted(newLog()), { prices }), go());
      expect(straight.progress.requests.done).toBe(18);

      keyed.resetStats();
      const b = await setup();
      const run = newRun(spec());
      await b.runs.saveRun(run);
      const ctl = new AbortController();
      keyed.configure({ latencyMs: 40 });
      const paused = await executeRun(run.id, keys(), deps(b, counted(newLog()), { prices, onProgress: (p) => p.samples.done >= 5 && ctl.abort('pause') }), ctl.signal);
      keyed.configure({ latencyMs: 0 });
      expect(paused.status).toBe('paused');
      expect(paused.progress.requests.done).toBeLessThan(18);
      // The page went away before its last checkpoints: the stored counters are those of the start.
      await b.runs.saveRun({ ...paused, progress: { ...paused.progress, requests: { done: 0, failed: 0, retrying: 0 }, tokens: { input: 0, output: 0 }, cost: 0 } });
      const resumed = await executeRun(run.id, keys(), deps(b, counted(newLog()), { prices }), go());
      expect(resumed.status).toBe('done');
      expect(served(keyed)).toEqual({ q0: 6, q1: 6, q2: 6 });
      expect(resumed.progress.requests.done).toBe(18);
      expect(resumed.progress.tokens).toEqual(straight.progress.tokens);
      expect(resumed.progress.cost).toBeCloseTo(straight.progress.cost!, 12);
    } finally {
      keyed.configure({ maxN: {}, latencyMs: 0 });
    }
  });
});
