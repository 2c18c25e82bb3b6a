/**
 * A report that left its samples out can show a question's samples from this browser's caches:
 * after a real run (loopback mock, IndexedDB in fake-indexeddb), questionSamples finds the very
 * samples and classes the run's report holds, through the storage API the page calls.
 */
import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { openStores, type Stores } from '../../../src/store/stores';
import { executeRun, newRun } from '../../../src/pipeline/runner';
import { realStages } from '../../../src/workers/real-stages';
import type { RunSpec } from '../../../src/model/run-spec';
import type { ScoreInput } from '../../../src/pipeline/stage-ports';
import { scoreRun } from '../../../src/pipeline/run-scoring';
import { questionSamples } from '../../../src/pipeline/question-samples';
import { createStorageApi } from '../../../src/workers/storage-api';
import { MockProviderServer } from '../../mock/provider-server';
import { lowercaseJudge } from '../../mock/lowercase-judge';

const QUESTIONS: { id: string; question: string; answer: string; answers: Record<string, number> }[] = [
  { id: 'q0', question: 'What is the capital of France?', answer: 'Paris', answers: { Paris: 1 } },
  { id: 'q1', question: 'What is the capital of Spain?', answer: 'Madrid', answers: { Madrid: 0.5, 'madrid': 0.2, Barcelona: 0.3 } },
  { id: 'q2', question: 'Name a large ocean.', answer: 'Pacific', answers: { Pacific: 0.4, Atlantic: 0.3, 'Indian Ocean': 0.3 } },
];


let mock: MockProviderServer;
beforeAll(async () => {
  mock = await MockProviderServer.start({ questions: QUESTIONS.map((q) => ({ match: q.question, id: q.id, answers: q.answers })), apiKey: null }, { responder: lowercaseJudge });
});
afterAll(async () => {
  await mock?.close();
});

const model = () => ({ kind: 'openai' as const, preset: 'vllm', baseUrl: `${mock.url}/v1`, model: 'sampled-model' });
const judge = () => ({ method: 'judge' as const, judge: { kind: 'openai' as const, preset: 'vllm', baseUrl: `${mock.url}/v1`, model: 'judge-model' } });

function spec(over: Partial<RunSpec> = {}): RunSpec {
  return {
    title: 'cached samples',
    dataset: { name: 'mixed', source: 'test', questions: QUESTIONS.map(({ id, question, answer }) => ({ id, question, answer })) },
    models: [model()],
    sampling: { n: 12, temperature: 1, maxTokens: 32, prompt: 'Question: {question}\nEnd with "Answer: …" and "Confidence: …%".', concurrency: 2 },
    clustering: { method: 'exact' },
    grading: { method: 'alias' },
    ...over,
  };
}

let dbs = 0;
/** A finished run whose report keeps every sample (answers and raw replies), to compare with. */
async function finishedRun(s: RunSpec): Promise<{ stores: Stores; runId: string }> {
  const stores = await openStores(`question-samples-${++dbs}-${Math.random()}`);
  const run = newRun(s);
  await stores.runs.saveRun(run);
  const impl = realStages({ score: (input: ScoreInput) => scoreRun(input, { samples: 'raw', B: 20, smooth: false }) });
  const done = await executeRun(run.id, {}, { runs: stores.runs, samples: stores.samples, stageCache: stores.stages, stages: impl }, new AbortController().signal);
  expect(done.status).toBe('done');
  return { stores, runId: run.id };
}

describe('questionSamples', () => {
  for (const [name, clustering] of [['exact match (clustered again)', { method: 'exact' as const }], ['an LLM judge (its cached partition)', null]] as const) {
    test(`finds each question's samples and the report's classes: ${name}`, async () => {
      const s = spec({ clustering: clustering ?? judge() });
      const { stores, runId } = await finishedRun(s);
      const report = (await stores.runs.getReport(runId))!;
      const requestsBefore = mock.stats().requests;
      for (const q of report.models[0].questions) {
        const got = await questionSamples(s, 'vllm/sampled-model', q.id, { samples: stores.samples, clusterings: stores.stages });
        if (!got.found) throw new Error(got.why);
        expect(got.samples.map((x) => ({ answer: x.answer, confidence: x.confidence, raw: x.raw }))).toEqual(q.samples!.map((x) => ({ answer: x.answer, confidence: x.confidence, raw: x.raw })));
        expect(got.classes).toEqual({ labels: q.classes!.map((c) => c.label), assignments: q.samples!.map((x) => x.cls) });
      }
      // Nothing was requested to read them back.
      expect(mock.stats().requests).toBe(requestsBefore);
      expect(report.models[0].questions.some((q) => (q.classes?.length ?? 0) > 1)).toBe(true);
    });
  }

  test('a clustering no longer cached gives the samples without classes; missing samples, an unknown model or question say why', async () => {
    const s = spec({ clustering: judge() });
    const { stores } = await finishedRun(s);
    const caches = { samples: stores.samples, clusterings: stores.stages };
    // Another judge: its clusterings were never made.
    const otherJudge = { ...s, clustering: { ...judge(), judge: { ...judge().judge, model: 'another-judge' } } };
    const unclassed = await questionSamples(otherJudge, 'vllm/sampled-model', 'q1', caches);
    expect(unclassed.found && unclassed.samples.length === 12 && unclassed.classes).toBe(null);

    const more = await questionSamples({ ...s, sampling: { ...s.sampling, n: 15 } }, 'vllm/sampled-model', 'q1', caches);
    expect(more).toEqual({ found: false, why: "only 12 of its 15 samples are still in this browser's sample cache" });
    const hotter = await questionSamples({ ...s, sampling: { ...s.sampling, temperature: 0.5 } }, 'vllm/sampled-model', 'q1', caches);
    expect(hotter).toEqual({ found: false, why: "its samples are no longer in this browser's sample cache" });
    expect(await questionSamples(s, 'openai/other', 'q1', caches)).toEqual({ found: false, why: 'the run that made this report has no model "openai/other"' });
    expect(await questionSamples({ ...s, mc: { runs: 1, seed: 0, samples: 12, logprobs: false } }, 'vllm/sampled-model', 'q1', caches)).toEqual({ found: false, why: "a multiple-choice run's samples are not read back into its report" });
    expect(await questionSamples(s, 'vllm/sampled-model', 'q9', caches)).toEqual({ found: false, why: 'the run that made this report has no question "q9"' });
  });

  test('through the storage API the page calls: by the report (run) id; a report with no run here says so', async () => {
    const { stores, runId } = await finishedRun(spec());
    const api = createStorageApi(async () => stores);
    const read = await api.questionSamples(runId, 'vllm/sampled-model', 'q2');
    expect(read.ok && read.value.found && read.value.samples.length).toBe(12);
    const none = await api.questionSamples('no-such-run', 'vllm/sampled-model', 'q2');
    expect(none).toEqual({ ok: true, value: { found: false, why: 'the run that made this report is not in this browser (a report file or share link keeps only what it holds)' } });
  });
});
