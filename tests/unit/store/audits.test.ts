import 'fake-indexeddb/auto';
import { expect, test } from 'vitest';
import { openStores } from '../../../src/store/stores';
import { createStorageApi } from '../../../src/workers/storage-api';
import type { AuditRecord } from '../../../src/model/audit-repository';

const record = (over: Partial<AuditRecord> = {}): AuditRecord => ({
  reportId: 'r1',
  person: 'ana',
  plan: { model: 'm', k: 2, seed: 7, stratifyBy: 'regime', ids: ['q2', 'q1'] },
  entries: [
    { id: 'q2', model: 'm', classes: [[0, 2], [1]], grade: 'INCORRECT', at: '2026-12-06T10:00:00Z' },
    { id: 'q1', model: 'm', classes: [[0], [1, 2]], grade: null, at: '2026-12-06T10:01:00Z' },
  ],
  others: [{ id: 'q2', classes: [[0, 1, 2]], grade: 'CORRECT', by: 'bo', at: '2026-12-05T09:00:00Z' }],
  updatedAt: '2026-12-06T10:01:00Z',
  ...over,
});

test('an audit is saved at each edit, read back as it was (a reload resumes it), and deleted', async () => {
  const stores = await openStores(`audits-${Math.random()}`);
  expect(await stores.audits.getAudit('r1')).toBeUndefined();
  await stores.audits.saveAudit(record());
  const edited = record({ entries: [record().entries[0], { ...record().entries[1], grade: 'CORRECT' }] });
  await stores.audits.saveAudit(edited);
  stores.db.close();
  // Another connection (a reload) reads what the last edit wrote.
  const again = await openStores(stores.db.name);
  expect(await again.audits.getAudit('r1')).toEqual(edited);
  await again.audits.deleteAudit('r1');
  expect(await again.audits.getAudit('r1')).toBeUndefined();
});

test('a corrupt stored audit is an error naming the record, through the storage API too', async () => {
  const stores = await openStores(`audits-${Math.random()}`);
  await stores.db.put('audits', { ...record(), entries: [{ id: 'q1', model: 'm', classes: [[0]], grade: 'MAYBE', at: '' }] } as unknown as AuditRecord);
  await expect(stores.audits.getAudit('r1')).rejects.toThrow(/audit of report "r1".*"q1" has no valid grade/);
  const api = createStorageApi(async () => stores);
  const read = await api.getAudit('r1');
  expect(read.ok).toBe(false);
  expect((await api.getAudit('other')).ok && (await api.getAudit('other'))).toEqual({ ok: true, value: null });
  expect(await api.saveAudit(record())).toEqual({ ok: true, value: true });
  expect(await api.getAudit('r1')).toEqual({ ok: true, value: record() });
});

test("deleting a saved report through the storage API deletes its audit", async () => {
  const stores = await openStores(`audits-${Math.random()}`);
  const api = createStorageApi(async () => stores);
  await api.saveAudit(record());
  expect(await api.deleteReport('r1')).toEqual({ ok: true, value: true });
  expect(await api.getAudit('r1')).toEqual({ ok: true, value: null });
});

test("the plan's half-width and other people's plans are stored and read back; a corrupt plan of theirs is named", async () => {
  const stores = await openStores(`audits-${Math.random()}`);
  const withPlans = record({
    plan: { model: 'm', k: 2, seed: 7, stratifyBy: 'regime', ids: ['q2', 'q1'], halfWidth: 0.1 },
    otherPlans: [{ by: 'bo', draw: 'plain', seed: 3, ids: ['q2'] }],
  });
  await stores.audits.saveAudit(withPlans);
  expect(await stores.audits.getAudit('r1')).toEqual(withPlans);
  await stores.db.put('audits', { ...withPlans, otherPlans: [{ by: 'bo', draw: 'plain', seed: 3, ids: [4] }] } as unknown as AuditRecord);
  await expect(stores.audits.getAudit('r1')).rejects.toThrow(/another person's plan is not a plan/);
});
