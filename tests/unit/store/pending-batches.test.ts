/**
 * The pending batches' store (store/pending-batches.ts, database version 9): a database of
 * version 8 opens with its runs kept and the new store empty; a record survives reopening the
 * database; a record that does not read as one is skipped.
 */
import 'fake-indexeddb/auto';
import { expect, test } from 'vitest';
import { openDB } from 'idb';
import { openStores } from '../../../src/store/stores';
import { DB_VERSION } from '../../../src/store/schema';
import type { PendingBatch } from '../../../src/model/pending-batch';
import { runRecord } from './run-record-fixture';

const batch = (batchId: string, submittedAt: string): PendingBatch => ({ runId: 'r1', batchId, kind: 'samples', modelIndex: 0, provider: 'openai', model: 'm', requests: 3, submittedAt });

test('a database of version 8 opens at the current version, its runs kept, with no pending batch', async () => {
  const name = `pending-v8-${Math.random()}`;
  // Version 8's stores as its upgrade made them (the ones this test reads): a run stored in it.
  const old = await openDB(name, 8, {
    upgrade(db) {
      db.createObjectStore('runs', { keyPath: 'id' }).createIndex('byCreated', 'createdAt');
      for (const s of ['clusterings', 'grades', 'reports', 'hubFiles', 'usage', 'entailment', 'questionSamples', 'questionSlots', 'audits']) db.createObjectStore(s, { keyPath: s === 'audits' ? 'reportId' : s === 'reports' ? 'runId' : s === 'hubFiles' ? 'url' : 'key' });
      db.createObjectStore('runQuestions', { keyPath: 'runId' });
      db.createObjectStore('gradeOverrides', { keyPath: ['runId', 'model', 'questionId'] }).createIndex('byRun', 'runId');
      db.createObjectStore('embeddings', { keyPath: ['model', 'text'] });
      db.createObjectStore('settings');
    },
  });
  const run = runRecord('r1', '2026-12-01T00:00:00.000Z');
  await old.put('runs', { ...run, version: 1 });
  old.close();

  const stores = await openStores(name);
  expect(DB_VERSION).toBe(9);
  expect(stores.db.version).toBe(DB_VERSION);
  expect((await stores.runs.getRun('r1'))?.spec.models).toEqual(run.spec.models);
  expect(await stores.pendingBatches.list('r1')).toEqual([]);
  await stores.pendingBatches.record(batch('b1', '2026-12-06T10:00:00.000Z'));
  expect(await stores.pendingBatches.list('r1')).toHaveLength(1);
  stores.db.close();
});

test('records survive reopening, listed oldest first by run; cleared one by one; a broken record is skipped', async () => {
  const name = `pending-${Math.random()}`;
  const stores = await openStores(name);
  await stores.pendingBatches.record(batch('late', '2026-12-06T11:00:00.000Z'));
  await stores.pendingBatches.record(batch('early', '2026-12-06T09:00:00.000Z'));
  await stores.pendingBatches.record({ ...batch('other-run', '2026-12-06T09:00:00.000Z'), runId: 'r2' });
  // Extra fields a caller's object carries are not stored (a key could ride on one).
  await stores.pendingBatches.record({ ...batch('extra', '2026-12-06T12:00:00.000Z'), apiKey: 'sk-never' } as PendingBatch);
  await stores.db.put('pendingBatches', { runId: 'r1', batchId: 'broken' } as unknown as PendingBatch);
  stores.db.close();

  const reopened = await openStores(name);
  expect((await reopened.pendingBatches.list('r1')).map((b) => b.batchId)).toEqual(['early', 'late', 'extra']);
  expect(JSON.stringify(await reopened.db.getAll('pendingBatches'))).not.toContain('sk-never');
  await reopened.pendingBatches.clear('r1', 'early');
  expect((await reopened.pendingBatches.list('r1')).map((b) => b.batchId)).toEqual(['late', 'extra']);
  expect((await reopened.pendingBatches.list('r2')).map((b) => b.batchId)).toEqual(['other-run']);
});

test("deleting a run deletes its record of pending batches, and no other run's", async () => {
  const stores = await openStores(`pending-delete-${Math.random()}`);
  await stores.runs.saveRun(runRecord('r1', '2026-12-01T00:00:00.000Z'));
  await stores.pendingBatches.record(batch('b1', '2026-12-06T10:00:00.000Z'));
  await stores.pendingBatches.record({ ...batch('b2', '2026-12-06T10:00:00.000Z'), runId: 'r2' });
  await stores.runs.deleteRun('r1');
  expect(await stores.pendingBatches.list('r1')).toEqual([]);
  expect(await stores.pendingBatches.list('r2')).toHaveLength(1);
});
