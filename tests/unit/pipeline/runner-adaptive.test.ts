/**
 * An adaptive run through the app's whole pipeline (run lifecycle, sample stage, exact clustering,
 * alias grading, the score stage) against the loopback mock: easy questions stop early and split
 * ones reach the maximum; the progress total shrinks to what was drawn; the report records the
 * rule and each question's selection block, and its Sem2 is adaptiveSem2 of the question's
 * classes; a question's samples read back from the cache are the slots the rule used.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { memoryStores } from '../../mock/memory-stores';
import { executeRun, newRun } from '../../../src/pipeline/runner';
import { realStages } from '../../../src/workers/real-stages';
import { keyId, type RunSpec } from '../../../src/model/run-spec';
import { scoreRun } from '../../../src/pipeline/run-scoring';
import { MockProviderServer } from '../../mock/provider-server';
import { DEFAULT_ADAPTIVE_RULE, planAdaptive } from '../../../src/core/adaptive-rule';
import { adaptiveSem2 } from '../../../src/core/adaptive-sem2';
import { adaptiveRoundsOf, answerKey } from '../../../src/pipeline/adaptive-slots';
import { questionSamples } from '../../../src/pipeline/question-samples';
import { parseReport } from '../../../src/formats/report-import';
import { reportToJson } from '../../../src/formats/report-export';

const SECRET = 'sk-zq81xv72wp93-runner-rounds';
const MAX = 30;
const QUESTIONS = [
  { id: 'easy', question: 'What is the capital of France?', answer: 'Paris' },
  { id: 'split', question: 'Which colour is the flag?', answer: 'Red' },
];
const split = (j: number) => (j % 3 === 0 ? 'Blue' : 'Red');

let mock: MockProviderServer;
beforeAll(async () => {
  mock = await MockProviderServer.start(
    { apiKey: SECRET, questions: [{ match: QUESTIONS[0].question, id: 'easy', answers: { Paris: 1 } }, { match: QUESTIONS[1].question, id: 'split', answers: { Red: 1 } }] },
    { responder: (req, j) => (req.user.includes('flag') ? `Answer: ${split(j)}\nConfidence: 60%` : undefined) },
  );
});
afterAll(async () => {
  await mock?.close();
});

const model = () => ({ kind: 'openai' as const, preset: 'openai', baseUrl: `${mock.url}/v1`, model: 'gpt-4o-mini' });
const spec = (): RunSpec => ({
  title: 'adaptive run',
  dataset: { name: 'mixed', source: 'test', questions: QUESTIONS },
  models: [model()],
  sampling: { n: MAX, adaptive: { ...DEFAULT_ADAPTIVE_RULE }, temperature: 1, maxTokens: 32, prompt: 'Question: {question}\nEnd with "Answer: …" and "Confidence: …%".', concurrency: 2 },
  clustering: { method: 'exact' },
  grading: { method: 'alias' },
});
const planOf = (answerAt: (j: number) => string) => planAdaptive(Array.from({ length: MAX }, (_, j) => answerKey(answerAt(j))), { ...DEFAULT_ADAPTIVE_RULE, maxSamples: MAX });

describe('an adaptive run through the pipeline', () => {
  test('samples in rounds, scores Sem2 on the one split, and records the rule and the blocks', async () => {
    const s = await memoryStores();
    const run = newRun(spec());
    await s.runs.saveRun(run);
    const totals: { total: number; upTo?: boolean }[] = [];
    const stages = realStages({ score: (input) => scoreRun(input, { samples: 'answers', B: 50, smooth: false }) });
    const done = await executeRun(run.id, { [keyId(model())]: SECRET }, { runs: s.runs, samples: s.samples, stageCache: s.stages, stages, onProgress: (p) => totals.push({ ...p.samples }) }, new AbortController().signal);
    expect(done.status, JSON.stringify(done.error)).toBe('done');
    const easy = planOf(() => 'Paris');
    const hard = planOf(split);
    const used = { easy: easy.selection + easy.heldOut, split: hard.selection + hard.heldOut };
    expect(used.easy).toBeLessThan(MAX);
    expect(used.split).toBe(MAX);
    expect(mock.stats().served).toEqual(used);
    expect(done.progress.samples).toEqual({ done: used.easy + used.split, total: used.easy + used.split, upTo: false });
    expect(totals.some((t) => t.upTo === true && t.total === 2 * MAX)).toBe(true);

    const report = (await s.runs.getReport(run.id))!;
    expect(report.settings).toMatchObject({ samples: MAX, adaptive: DEFAULT_ADAPTIVE_RULE });
    const [qe, qs] = report.models[0].questions;
    expect([qe.n, qe.selectionSamples]).toEqual([used.easy, easy.selection]);
    expect([qs.n, qs.selectionSamples]).toEqual([used.split, hard.selection]);
    for (const q of [qe, qs]) expect(q.sem2, q.id).toBe(adaptiveSem2(q.samples!.map((x) => x.cls), q.selectionSamples!));
    expect(qe.sem2).toBe(1);
    // The rounds replay from the report alone, and the document passes its own schema.
    expect(adaptiveRoundsOf(qs.samples!.map((x) => x.answer), report.settings)).toEqual(hard.rounds);
    expect(parseReport(reportToJson(report)).ok).toBe(true);

    // Read back from the cache (a report too large to keep its samples does this): the slots used.
    const back = await questionSamples(spec(), report.models[0].model, 'easy', { samples: s.samples, clusterings: s.stages });
    expect(back.found && back.samples.length).toBe(used.easy);
  });
});
