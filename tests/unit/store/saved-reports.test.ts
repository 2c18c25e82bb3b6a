import 'fake-indexeddb/auto';
import { expect, test, vi } from 'vitest';
import { openStores } from '../../../src/store/stores';
import { emptyProgress, type RunRecord } from '../../../src/model/run-spec';
import { demoDocument } from '../../e2e/report-fixture';

const doc = demoDocument();

test('saved reports without a run record are listed newest first (summary only); deleting one leaves runs and their reports alone', async () => {
  const stores = await openStores(`saved-reports-${Math.random()}`);
  const runId = 'run-1';
  const createdAt = '2025-01-01T00:00:00.000Z';
  const run: RunRecord = {
    id: runId,
    title: 'a run',
    createdAt,
    updatedAt: createdAt,
    status: 'done',
    progress: emptyProgress(1),
    spec: {
      title: 'a run',
      dataset: { name: 'd', source: 'test', questions: [{ id: 'q1', question: 'Capital of France?', answer: 'Paris' }] },
      models: [{ kind: 'openai', preset: 'openai', baseUrl: 'http://127.0.0.1:1/v1', model: 'm' }],
      sampling: { n: 4, temperature: 1, maxTokens: 64, prompt: '{question}', concurrency: 2 },
      clustering: { method: 'exact' },
      grading: { method: 'alias' },
    },
  };
  await stores.runs.saveRun(run);
  // savedAt is read from the clock: set it, so "newest first" does not depend on how fast this runs.
  vi.useFakeTimers({ toFake: ['Date'] });
  try {
    vi.setSystemTime(new Date('2025-02-01T00:00:00.000Z'));
    await stores.runs.saveReport(runId, doc);
    await stores.runs.saveReport('shared-1', { ...doc, title: 'kept copy' });
    vi.setSystemTime(new Date('2025-02-01T00:00:01.000Z'));
    await stores.runs.saveReport('opened-1', { ...doc, title: 'saved file', demo: undefined });
  } finally {
    vi.useRealTimers();
  }
  await stores.runs.setGradeOverride({ runId: 'opened-1', model: doc.models[0].model, questionId: doc.models[0].questions[0].id, grade: 'INCORRECT' });

  const listed = await stores.runs.listReportsWithoutRun();
  expect(listed.map((r) => r.id)).toEqual(['opened-1', 'shared-1']);
  expect(listed[0]).toMatchObject({ title: 'saved file', models: doc.models.map((m) => m.model), questions: doc.dataset.questions, demo: false });
  expect(listed[1].demo).toBe(true);
  expect(Object.keys(listed[0]).sort()).toEqual(['demo', 'id', 'models', 'questions', 'savedAt', 'title']);

  await stores.runs.deleteReport('opened-1');
  expect((await stores.runs.listReportsWithoutRun()).map((r) => r.id)).toEqual(['shared-1']);
  expect(await stores.runs.getReport('opened-1')).toBeUndefined();
  expect((await stores.runs.gradeOverrides('opened-1')).size).toBe(0);
  // The run's own report is neither listed nor touched.
  expect((await stores.runs.getReport(runId))?.title).toBe(doc.title);
  expect(await stores.runs.getRun(runId)).toBeDefined();
});
