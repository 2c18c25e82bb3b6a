import 'fake-indexeddb/auto';
import { afterAll, expect, test } from 'vitest';
import { openStores } from '../../../src/store/stores';
import { StoredRecordError, upgradeToCurrent, type DocumentVersions } from '../../../src/store/stored-records';
import { reportToJson } from '../../../src/formats/report-export';
import type { RunRecord } from '../../../src/model/run-spec';
import { REPORT_VERSION } from '../../../src/model/report';
import { runRecord } from './run-record-fixture';
import { createRunWorkerApi } from '../../../src/workers/run-worker-api';
import type { RunWorkerApi } from '../../../src/workers/protocol';
import { connectApi, exposeApi } from '../../../src/workers/worker-connection';
import { demoDocument } from '../../e2e/report-fixture';

const doc = demoDocument();
const ports: MessagePort[] = [];
afterAll(() => ports.forEach((p) => p.close()));

async function fresh() {
  const dbName = `records-${Math.random()}`;
  const { port1, port2 } = new MessageChannel();
  ports.push(port1, port2);
  exposeApi(createRunWorkerApi({ dbName, crossTab: null }), port1);
  return { stores: await openStores(dbName), worker: connectApi<RunWorkerApi>(() => port2, { name: 'run' }).api };
}

const run = (id: string): RunRecord => runRecord(id, '2026-01-01T00:00:00.000Z', { status: 'done' });

test('a corrupt saved report is an error naming the report and the bad field, never a crash', async () => {
  const { stores, worker } = await fresh();
  const broken = structuredClone(doc) as unknown as { models: { questions: { sem1: unknown }[] }[] };
  broken.models[0].questions[3].sem1 = 'high';
  await stores.db.put('reports', { runId: 'opened-bad', document: broken as never, savedAt: '2026-01-02T00:00:00.000Z' });

  await expect(stores.runs.getReport('opened-bad')).rejects.toBeInstanceOf(StoredRecordError);
  const read = await worker.getReport('opened-bad');
  expect(read).toMatchObject({ ok: false, error: { kind: 'stored-record', where: 'reports/opened-bad' } });
  expect(!read.ok && read.error.message).toMatch(/^The saved report "opened-bad" cannot be opened: models\[0\]\.questions\[3\]\.sem1: expected a number in \[0,1\]/);
});

test('an unreadable saved report is listed with its problem, beside the readable ones, and can be deleted', async () => {
  const { stores, worker } = await fresh();
  await stores.runs.saveReport('shared-good', doc);
  await stores.db.put('reports', { runId: 'shared-bad', document: { ...doc, title: 42 } as never, savedAt: '2026-01-02T00:00:00.000Z' });
  const listed = await worker.listSavedReports();
  expect(listed.ok).toBe(true);
  const byId = new Map(listed.ok ? listed.value.map((r) => [r.id, r]) : []);
  expect(byId.get('shared-good')?.problem).toBeUndefined();
  expect(byId.get('shared-bad')?.problem).toBe('The saved report "shared-bad" cannot be opened: title: Invalid input: expected string, received number');
  expect(await worker.deleteReport('shared-bad')).toEqual({ ok: true, value: true });
  expect(await worker.getReport('shared-bad')).toEqual({ ok: true, value: null });
});

test('a report saved by a newer app says so instead of failing on its fields', async () => {
  const { stores, worker } = await fresh();
  await stores.db.put('reports', { runId: 'future', document: { ...doc, version: 9 } as never, savedAt: '2026-01-02T00:00:00.000Z' });
  const read = await worker.getReport('future');
  expect(!read.ok && read.error.message).toBe(`The stored report "future" was saved by a newer version of this app (version 9; this app reads up to ${REPORT_VERSION}).`);
});

test('a report stored in its JSON shape (null for an undefined statistic) opens as the document', async () => {
  const { stores, worker } = await fresh();
  await stores.db.put('reports', { runId: 'as-json', document: JSON.parse(reportToJson(doc)), savedAt: '2026-01-02T00:00:00.000Z' });
  const read = await worker.getReport('as-json');
  expect(read.ok && read.value).toEqual(doc);
});

test('a corrupt run record is listed apart with why; reading it alone names the field', async () => {
  const { stores, worker } = await fresh();
  await stores.runs.saveRun(run('good'));
  const bad = run('bad') as unknown as { spec: { clustering: unknown } };
  bad.spec.clustering = { method: 'telepathy' };
  await stores.db.put('runs', bad as never);

  const listed = await worker.listRuns();
  expect(listed.ok && listed.value.runs.map((r) => r.id)).toEqual(['good']);
  expect(listed.ok && listed.value.unreadable).toEqual([{ id: 'bad', message: expect.stringMatching(/^The stored run "bad" cannot be read: spec\.clustering\.method: /) }]);
  await expect(stores.runs.getRun('bad')).rejects.toMatchObject({ kind: 'stored-record', where: 'runs/bad' });
  expect(await worker.resume('bad', {})).toMatchObject({ ok: false, error: { kind: 'stored-record', where: 'runs/bad' } });
  expect(await worker.deleteRun('bad')).toEqual({ ok: true, value: true });
  expect((await stores.runs.listRuns()).unreadable).toEqual([]);
});

test('run records are written with their version and read back without it', async () => {
  const { stores } = await fresh();
  await stores.runs.saveRun(run('r'));
  // Version 2: the questions in their own record, the run record counting them.
  expect(await stores.db.get('runs', 'r')).toMatchObject({ version: 2, questionCount: 1, spec: { dataset: { questions: [] } } });
  expect(await stores.db.get('runQuestions', 'r')).toEqual({ runId: 'r', questions: run('r').spec.dataset.questions });
  expect(await stores.runs.getRun('r')).toEqual(run('r'));
});

test('a stored price table that is not one is an error; a stored key that is not text is left out', async () => {
  const { stores, worker } = await fresh();
  await stores.db.put('settings', { 'openai/gpt-4o-mini': { input: 'cheap', output: 0.6 } }, 'priceTable');
  await stores.db.put('settings', 12345, 'key:openai@https://api.openai.com');
  await stores.settings.rememberKey('groq@https://api.groq.com', 'gsk-1');
  const prices = await worker.getPrices();
  expect(prices).toMatchObject({ ok: false, error: { kind: 'stored-record', where: 'settings/priceTable' } });
  expect(!prices.ok && prices.error.message).toBe('The stored price table cannot be read: Price "openai/gpt-4o-mini" needs a non-negative number for input (USD per million tokens).');
  expect(await worker.rememberedKeys()).toEqual({ ok: true, value: { 'groq@https://api.groq.com': 'gsk-1' } });
});

test('upgrades run one step per version, in order, up to the current one', () => {
  const versions: DocumentVersions = {
    current: 3,
    steps: {
      1: (d) => ({ ...(d as object), version: 2, steps: [...(d as { steps: string[] }).steps, '1→2'] }),
      2: (d) => ({ ...(d as object), version: 3, steps: [...(d as { steps: string[] }).steps, '2→3'] }),
    },
  };
  expect(upgradeToCurrent({ version: 1, steps: [] }, 1, versions, 'x/1', 'thing')).toEqual({ version: 3, steps: ['1→2', '2→3'] });
  expect(upgradeToCurrent({ version: 2, steps: [] }, 2, versions, 'x/1', 'thing')).toEqual({ version: 3, steps: ['2→3'] });
  expect(upgradeToCurrent({ version: 3, steps: [] }, 3, versions, 'x/1', 'thing')).toEqual({ version: 3, steps: [] });
  expect(() => upgradeToCurrent({}, 1, { current: 2, steps: {} }, 'x/1', 'thing')).toThrow('The stored thing is at version 1, which this app cannot upgrade.');
  expect(() => upgradeToCurrent({}, 'one', versions, 'x/1', 'thing')).toThrow('The stored thing has no valid version (found "one").');
});
