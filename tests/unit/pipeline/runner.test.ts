import 'fake-indexeddb/auto';
import { describe, expect, test } from 'vitest';
import { openStores, type Stores } from '../../../src/store';
import { executeRun, newRun, type RunnerDeps } from '../../../src/pipeline/runner';
import { keyId, type RunKeys, type RunSpec } from '../../../src/pipeline/run-types';
import type { RunnerStages, SampleStageArgs } from '../../../src/pipeline/runner-stages';
import { sampleKey } from '../../../src/pipeline/sample-cache';
import { createExactClusterer } from '../../../src/clustering/exact';
import { normalizeAnswer } from '../../../src/clustering/normalize';
import type { ReportDocument } from '../../../src/formats/report-document';
import type { Sample, SampledRow } from '../../../src/pipeline/types';

const model = { kind: 'openai' as const, preset: 'vllm', baseUrl: 'http://127.0.0.1:9/v1', model: 'tiny' };
const SECRET = 'sk-test-DO-NOT-STORE-0123456789';

function spec(over: Partial<RunSpec> = {}): RunSpec {
  return {
    title: 'test run',
    dataset: { name: 'capitals', source: 'test', questions: ['France:Paris', 'Spain:Madrid', 'Italy:Rome'].map((s, i) => ({ id: `q${i}`, question: `Capital of ${s.split(':')[0]}?`, answer: s.split(':')[1] })) },
    models: [model],
    sampling: { n: 6, temperature: 1, maxTokens: 32, prompt: 'Q: {question}', concurrency: 2 },
    clustering: { method: 'exact' },
    grading: { method: 'alias' },
    ...over,
  };
}

/**
 * A sampler with the contract of the providers' orchestrator: per (question, index) it looks
 * the sample key up in the cache, asks the "provider" only for missing ones, and stores them.
 * It records every request, and can be made to stop after `stopAfter` requests (a reload).
 */
function sampler(log: { requests: string[]; keysSeen: string[] }, stopAfter = Infinity) {
  return async (args: SampleStageArgs) => {
    const rows: SampledRow[] = [];
    for (const q of args.dataset.questions) {
      const keys = await Promise.all(Array.from({ length: args.sampling.n }, (_, index) => sampleKey({ preset: args.model.preset, baseUrl: args.model.baseUrl, model: args.model.model, prompt: args.sampling.prompt.replace('{question}', q.question), settings: { temperature: args.sampling.temperature, maxTokens: args.sampling.maxTokens }, questionId: q.id, question: q.question, index })));
      args.onKeys?.(`group:${q.id}`, keys);
      const have = await args.cache.get(keys);
      args.onSamples(have.filter(Boolean).length);
      const samples: Sample[] = [];
      for (let i = 0; i < keys.length; i++) {
        let s = have[i];
        if (!s) {
          if (log.requests.length >= stopAfter) return { ok: false as const, error: { kind: 'aborted', message: 'reload' } };
          log.requests.push(keys[i]);
          log.keysSeen.push(args.model.apiKey ?? '');
          const answer = i % 3 === 2 ? 'Lyon' : q.answer.toUpperCase();
          s = { raw: `Answer: ${answer}\nConfidence: 70%`, answer, answerMethod: 'answer-line', confidence: 0.7, confidenceMethod: 'confidence-line', finishReason: 'stop' };
          await args.cache.put([{ key: keys[i], sample: s }]);
          args.onRequest({ type: 'done', replies: 1, usage: { inputTokens: 10, outputTokens: 5 }, ms: 1 });
          args.onSamples(1);
        }
        samples.push(s);
      }
      rows.push({ id: q.id, question: q.question, gold_answer: q.answer, model: `${args.model.preset}/${args.model.model}`, n_samples: samples.length, results: samples.map((s) => s.raw), answer_extracted: samples.map((s) => s.answer), confidence_verbalized: samples.map((s) => s.confidence) });
    }
    return { ok: true as const, value: rows };
  };
}

function stages(log: { requests: string[]; keysSeen: string[]; clusterCalls: number; gradeCalls: number; scored: number }, stopAfter = Infinity): RunnerStages {
  const exact = createExactClusterer();
  return {
    sample: sampler(log, stopAfter),
    clusterer: () => ({ method: 'exact', cluster: (...a) => (log.clusterCalls++, exact.cluster(...a)) }),
    grader: () => ({ grade: async (q, label) => (log.gradeCalls++, { ok: true, value: normalizeAnswer(label) === normalizeAnswer(q.answer) ? 'CORRECT' : 'INCORRECT' }) }),
    score: (input) => {
      log.scored++;
      return { format: 'semece-report', version: 1, title: input.title, createdAt: 'x', dataset: input.dataset, settings: input.settings, models: input.models.map((m) => ({ model: m.model, metrics: { questions: m.graded.length } as never, questions: m.graded.map((g) => ({ id: g.id, grade: g.grade, correct: g.Y }) as never), excludedQuestions: m.excluded })) } as ReportDocument;
    },
  };
}

const newLog = () => ({ requests: [] as string[], keysSeen: [] as string[], clusterCalls: 0, gradeCalls: 0, scored: 0 });
let n = 0;
async function setup(): Promise<Stores> {
  return openStores(`runner-${++n}-${Math.random()}`);
}
const deps = (s: Stores, impl: RunnerStages): RunnerDeps => ({ runs: s.runs, samples: s.samples, stages: s.stages, impl });
const keys: RunKeys = { [keyId(model)]: SECRET };

describe('executeRun', () => {
  test('walks a run to a saved report, requesting each sample once', async () => {
    const s = await setup();
    const log = newLog();
    const run = newRun(spec());
    await s.runs.saveRun(run);
    const done = await executeRun(run.id, keys, deps(s, stages(log)), new AbortController().signal);
    expect(done.status).toBe('done');
    expect(log.requests.length).toBe(18);
    expect(new Set(log.requests).size).toBe(18);
    expect(done.progress.samples).toEqual({ done: 18, total: 18 });
    expect(done.progress.tokens).toEqual({ input: 180, output: 90 });
    const report = await s.runs.getReport(run.id);
    expect(report?.models[0].questions.map((q) => q.grade)).toEqual(['CORRECT', 'CORRECT', 'CORRECT']);
  });

  test('a run cut off mid-sampling resumes and ends with exactly n samples per question, none requested twice', async () => {
    const s = await setup();
    const log = newLog();
    const run = newRun(spec());
    await s.runs.saveRun(run);
    const first = await executeRun(run.id, keys, deps(s, stages(log, 7)), new AbortController().signal);
    expect(first.status).toBe('failed');
    expect(log.requests.length).toBe(7);
    const second = await executeRun(run.id, keys, deps(s, stages(log)), new AbortController().signal);
    expect(second.status).toBe('done');
    expect(log.requests.length).toBe(18);
    expect(new Set(log.requests).size).toBe(18);
    for (const q of run.spec.dataset.questions) expect(await s.samples.countForQuestion(`group:${q.id}`)).toBe(6);
  });

  test('changing the clusterer reclusters, regrades and rescores, but samples nothing again', async () => {
    const s = await setup();
    const log = newLog();
    const a = newRun(spec());
    await s.runs.saveRun(a);
    await executeRun(a.id, keys, deps(s, stages(log)), new AbortController().signal);
    expect([log.requests.length, log.clusterCalls, log.gradeCalls, log.scored]).toEqual([18, 3, 3, 1]);

    // The same settings again: every stage comes from its cache except scoring.
    const same = newRun(spec());
    await s.runs.saveRun(same);
    const again = await executeRun(same.id, keys, deps(s, stages(log)), new AbortController().signal);
    expect([log.requests.length, log.clusterCalls, log.gradeCalls, log.scored]).toEqual([18, 3, 3, 2]);
    expect(again.progress.stages.cluster.cached).toBe(3);

    const b = newRun(spec({ clustering: { method: 'embedding', model: 'Xenova/all-MiniLM-L6-v2', threshold: 0.8 } }));
    await s.runs.saveRun(b);
    await executeRun(b.id, keys, deps(s, stages(log)), new AbortController().signal);
    expect(log.requests.length).toBe(18);
    expect(log.clusterCalls).toBe(6);
    expect(log.scored).toBe(3);
  });

  test('a cancelled run stops as cancelled; a paused one resumes', async () => {
    const s = await setup();
    const log = newLog();
    const run = newRun(spec());
    await s.runs.saveRun(run);
    const ctl = new AbortController();
    ctl.abort('pause');
    expect((await executeRun(run.id, keys, deps(s, stages(log)), ctl.signal)).status).toBe('paused');
    const cancel = new AbortController();
    cancel.abort('cancel');
    expect((await executeRun(run.id, keys, deps(s, stages(log)), cancel.signal)).status).toBe('cancelled');
    expect((await executeRun(run.id, keys, deps(s, stages(log)), new AbortController().signal)).status).toBe('done');
  });

  test('the key reaches only its own provider and never the stored run', async () => {
    const s = await setup();
    const log = newLog();
    const other = { ...model, preset: 'openai', baseUrl: 'http://127.0.0.1:10/v1', model: 'other' };
    const run = newRun(spec({ models: [model, other] }));
    await s.runs.saveRun(run);
    await executeRun(run.id, keys, deps(s, stages(log)), new AbortController().signal);
    expect(new Set(log.keysSeen)).toEqual(new Set([SECRET, '']));
    expect(log.keysSeen.filter((k) => k === SECRET).length).toBe(18);
    const raw = JSON.stringify(await s.db.getAll('runs')) + JSON.stringify(await s.db.getAll('reports'));
    expect(raw).not.toContain(SECRET);
  });
});
