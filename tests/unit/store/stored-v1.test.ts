import 'fake-indexeddb/auto';
import { readFileSync } from 'node:fs';
import { afterAll, expect, test } from 'vitest';
import { openDB, type IDBPDatabase } from 'idb';
import { openStores } from '../../../src/store/stores';
import { DB_VERSION } from '../../../src/store/schema';
import { REPORT_VERSION, type ReportDocument } from '../../../src/model/report';
import type { RunRecord } from '../../../src/model/run-spec';
import type { Sample } from '../../../src/model/rows';
import { createRunWorkerApi } from '../../../src/workers/run-worker-api';
import type { RunWorkerApi } from '../../../src/workers/protocol';
import { connectApi, exposeApi } from '../../../src/workers/worker-connection';

/** Every record of a database the app saved at version 1 (tests/fixtures/stored-v1/README.md). */
interface Dump {
  version: number;
  stores: Record<string, { key: IDBValidKey; value: unknown }[]>;
}
const dump: Dump = JSON.parse(readFileSync('tests/fixtures/stored-v1/semece-database.json', 'utf8'), (_key, v) =>
  v !== null && typeof v === 'object' && typeof v.$number === 'string' && Object.keys(v).length === 1 ? Number(v.$number) : v,
);
const records = (store: string) => dump.stores[store];
const runRecord = records('runs')[0].value as RunRecord;
const runReport = records('reports').find((r) => r.key === runRecord.id)!.value as { document: ReportDocument };
const opened = records('reports').find((r) => r.key !== runRecord.id)!;

/** The schema of database version 1, as the app created it then (the datasets store included). */
async function databaseAtVersion1(name: string): Promise<void> {
  const db: IDBPDatabase = await openDB(name, 1, {
    upgrade(v1) {
      v1.createObjectStore('datasets', { keyPath: 'id' });
      v1.createObjectStore('samples', { keyPath: 'key' }).createIndex('byQuestion', 'question');
      v1.createObjectStore('runs', { keyPath: 'id' }).createIndex('byCreated', 'createdAt');
      v1.createObjectStore('clusterings', { keyPath: 'key' });
      v1.createObjectStore('grades', { keyPath: 'key' });
      v1.createObjectStore('gradeOverrides', { keyPath: ['runId', 'model', 'questionId'] }).createIndex('byRun', 'runId');
      v1.createObjectStore('embeddings', { keyPath: ['model', 'text'] });
      v1.createObjectStore('reports', { keyPath: 'runId' });
      v1.createObjectStore('settings');
    },
  });
  for (const [store, rows] of Object.entries(dump.stores)) {
    const tx = db.transaction(store, 'readwrite');
    for (const { key, value } of rows) void (tx.store.keyPath === null ? tx.store.put(value, key) : tx.store.put(value));
    await tx.done;
  }
  db.close();
}

const ports: MessagePort[] = [];
afterAll(() => ports.forEach((p) => p.close()));

/** The run worker's API over a MessageChannel, as the page reaches it. */
function runWorker(dbName: string) {
  const { port1, port2 } = new MessageChannel();
  ports.push(port1, port2);
  exposeApi(createRunWorkerApi({ dbName, crossTab: null }), port1);
  return connectApi<RunWorkerApi>(() => port2, { name: 'run' }).api;
}

test('the fixture is what version 1 saved: a done run, its report, an opened copy, a dataset', () => {
  expect(dump.version).toBe(1);
  expect(runRecord).toMatchObject({ status: 'done', reportId: runRecord.id });
  expect('version' in runRecord).toBe(false);
  expect(runReport.document).toMatchObject({ format: 'semece-report', version: 1 });
  expect(records('datasets')).toHaveLength(1);
});

test('a database saved at version 1 opens after the upgrade: every report, run and setting reads back through the worker', async () => {
  const name = `stored-v1-${Math.random()}`;
  await databaseAtVersion1(name);
  const worker = runWorker(name);

  const report = await worker.getReport(runRecord.id);
  expect(report.ok).toBe(true);
  // The same document as saved (NaN where the core left a statistic undefined), upgraded to the
  // report version this app writes (formats/report-versions.ts): only its version number changes.
  expect(report.ok && report.value).toEqual({ ...runReport.document, version: REPORT_VERSION });
  const copy = await worker.getReport(String(opened.key));
  expect(copy.ok && copy.value?.title).toBe('Opened copy');

  const runs = await worker.listRuns();
  expect(runs.ok && runs.value.unreadable).toEqual([]);
  expect(runs.ok && runs.value.runs.map((r) => [r.id, r.status, r.questionCount, r.reportId])).toEqual([[runRecord.id, 'done', 3, runRecord.id]]);
  const status = await worker.status(runRecord.id);
  // The listing the page receives leaves the questions out (RunListing); the stored run keeps them (below).
  expect(status.ok && status.value.spec).toEqual({ ...runRecord.spec, dataset: { ...runRecord.spec.dataset, questions: [] } });
  expect(status.ok && status.value.questionCount).toBe(runRecord.spec.dataset.questions.length);

  const saved = await worker.listSavedReports();
  expect(saved).toEqual({
    ok: true,
    value: [{ id: opened.key, title: 'Opened copy', savedAt: '2026-12-01T12:00:00.000Z', models: ['openai/gpt-4o-mini'], questions: 3, demo: false }],
  });
  expect(await worker.rememberedKeys()).toEqual({ ok: true, value: { 'groq@https://api.groq.com': 'gsk-fixture-remembered' } });
  expect(await worker.getPrices()).toEqual({ ok: true, value: { 'openai/gpt-4o-mini': { input: 0.15, output: 0.6 } } });

  // A resumed or re-scored run finds its caches and overrides where version 1 left them.
  const stores = await openStores(name);
  expect(stores.db.version).toBe(DB_VERSION);
  expect((await stores.runs.getRun(runRecord.id))?.spec).toEqual(runRecord.spec);
  expect(Array.from(stores.db.objectStoreNames)).not.toContain('datasets');
  for (const store of ['clusterings', 'grades', 'gradeOverrides', 'reports', 'settings'] as const) {
    expect(await stores.db.count(store)).toBe(records(store).length);
  }
  // Version 6 keeps samples by question: the 18 samples of version 1 are 3 records of 6, each under its old key.
  expect(Array.from(stores.db.objectStoreNames)).not.toContain('samples');
  const samples = records('samples').map((r) => r.value as { key: string; sample: Sample });
  expect(await stores.db.count('questionSamples')).toBe(3);
  expect(await stores.samples.get(samples.map((r) => r.key))).toEqual(samples.map((r) => r.sample));
  const bases = [...new Set(samples.map((r) => r.key.slice(0, r.key.lastIndexOf('#'))))];
  // With n = 8 a resumed run would find indices 0–5 and ask for 6 and 7 only.
  expect(await stores.samples.storedIndices(bases, 8)).toEqual(bases.map(() => [true, true, true, true, true, true, false, false]));
  const read = await stores.samples.getQuestions(bases, 6);
  expect(read.flat()).toHaveLength(18);
  expect(read.flat().every((s) => s !== undefined && typeof s.raw === 'string')).toBe(true);
  expect((await stores.runs.gradeOverrides(String(opened.key))).get('openai/gpt-4o-mini')?.get('canberra')).toBe('INCORRECT');
  stores.db.close();
});

test('a run or report saved now still reads back as it was saved', async () => {
  const name = `stored-v1-now-${Math.random()}`;
  await databaseAtVersion1(name);
  const worker = runWorker(name);
  // The report as this app writes it now: at the current report version.
  const now: ReportDocument = { ...runReport.document, version: REPORT_VERSION };
  expect(await worker.saveReport('kept', now)).toEqual({ ok: true, value: true });
  const kept = await worker.getReport('kept');
  expect(kept.ok && kept.value).toEqual(now);
  const stores = await openStores(name);
  await stores.runs.saveRun({ ...runRecord, id: 'again' });
  expect(await stores.runs.getRun('again')).toEqual({ ...runRecord, id: 'again' });
  stores.db.close();
});
