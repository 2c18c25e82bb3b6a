/**
 * The version-6 upgrade: a database of version 5 (one record per sample in `samples`, with its
 * byQuestion index) opens with every sample in its question's record, and the cache means what
 * it meant: a repeated run requests nothing, a larger n requests only the new indices, a batch
 * plan over it lists only what is missing.
 */
import 'fake-indexeddb/auto';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { openDB } from 'idb';
import { openStores } from '../../../src/store/stores';
import { DB_VERSION, type StoredSample } from '../../../src/store/schema';
import { MemorySampleCache } from '../../../src/model/sample-cache';
import { runSampling } from '../../../src/pipeline/sampling';
import { SampleRequestSet } from '../../../src/batch/request-set';
import { extractSample } from '../../../src/pipeline/extract';
import type { Question, Sample } from '../../../src/model/rows';
import { MockProviderServer } from '../../mock/provider-server';
import { KEY, providerFor } from '../providers/helpers';

const QUESTIONS: Question[] = Array.from({ length: 5 }, (_, i) => ({ id: `q${i}`, question: `Migrated question number ${i}?`, answer: `A${i}` }));
const SETTINGS = { temperature: 1, topP: 1, maxTokens: 100 };

let mock: MockProviderServer;
beforeAll(async () => {
  mock = await MockProviderServer.start({ apiKey: KEY, questions: QUESTIONS.map((q, i) => ({ match: q.question, id: q.id, answers: { [`A${i}`]: 2, [`B${i}`]: 1 }, confidence: 70 })) });
});
afterAll(() => mock?.close());

/** The schema of version 5 as the app created it, with these sample records in `samples`. */
async function databaseAtVersion5(name: string, samples: StoredSample[]): Promise<void> {
  const db = await openDB(name, 5, {
    upgrade(v5) {
      v5.createObjectStore('samples', { keyPath: 'key' }).createIndex('byQuestion', 'question');
      v5.createObjectStore('runs', { keyPath: 'id' }).createIndex('byCreated', 'createdAt');
      v5.createObjectStore('clusterings', { keyPath: 'key' });
      v5.createObjectStore('grades', { keyPath: 'key' });
      v5.createObjectStore('gradeOverrides', { keyPath: ['runId', 'model', 'questionId'] }).createIndex('byRun', 'runId');
      v5.createObjectStore('embeddings', { keyPath: ['model', 'text'] });
      v5.createObjectStore('reports', { keyPath: 'runId' });
      v5.createObjectStore('settings');
      v5.createObjectStore('hubFiles', { keyPath: 'url' });
      v5.createObjectStore('usage', { keyPath: 'key' });
      v5.createObjectStore('entailment', { keyPath: 'key' });
    },
  });
  const tx = db.transaction(['samples', 'entailment'], 'readwrite');
  for (const s of samples) void tx.objectStore('samples').put(s);
  void tx.objectStore('entailment').put({ key: 'e1', label: 'entailment', storedAt: 1 });
  await tx.done;
  db.close();
}

const stored = (key: string, sample: Sample, storedAt = 1000): StoredSample => ({ key, sample, question: `${key.slice(0, key.lastIndexOf('#'))}#0#q`, storedAt });

test('a version-5 database keeps every sample under its key, one record per question, and a run over it requests only what is missing', async () => {
  // Samples as version 5 stored them after an interactive run of n = 4.
  const sampled = new MemorySampleCache();
  const { provider } = providerFor(mock, 'openai');
  expect((await runSampling({ questions: QUESTIONS, provider, settings: SETTINGS, n: 4, cache: sampled })).state).toBe('done');
  const records = [...sampled.map].map(([key, sample]) => stored(key, sample));
  expect(records).toHaveLength(20);
  const name = `migrate-v5-${Math.random()}`;
  await databaseAtVersion5(name, records);

  const stores = await openStores(name);
  expect(stores.db.version).toBe(DB_VERSION);
  expect(Array.from(stores.db.objectStoreNames)).not.toContain('samples');
  // The entailment store of version 5 is kept as it was.
  expect(await stores.db.get('entailment', 'e1')).toEqual({ key: 'e1', label: 'entailment', storedAt: 1 });
  expect(await stores.db.count('questionSamples')).toBe(QUESTIONS.length);
  expect(await stores.samples.get(records.map((r) => r.key))).toEqual(records.map((r) => r.sample));

  // A repeated run requests nothing; the same run with n = 6 requests exactly indices 4 and 5.
  mock.resetStats();
  const again = await runSampling({ questions: QUESTIONS, provider, settings: SETTINGS, n: 4, cache: stores.samples });
  expect(again).toMatchObject({ state: 'done', progress: { samples: { cached: 20, total: 20 } } });
  expect(mock.stats().requests).toBe(0);
  // A batch plan over the migrated store asks for the two new indices of each question only.
  const made = await SampleRequestSet.create({ model: { kind: 'openai', preset: 'openai', baseUrl: `${mock.url}/v1`, model: 'gpt-4o-mini' }, settings: SETTINGS, n: 6, questions: QUESTIONS });
  if (!made.ok) throw new Error(made.error.message);
  const planned = [];
  for await (const p of made.value.requests(stores.samples)) planned.push([p.questionId, p.first, p.count]);
  expect(planned).toEqual(QUESTIONS.map((q) => [q.id, 4, 2]));
  const more = await runSampling({ questions: QUESTIONS, provider, settings: SETTINGS, n: 6, cache: stores.samples });
  expect(more.state).toBe('done');
  for (const q of QUESTIONS) expect(mock.stats().served[q.id], q.id).toBe(2);
  await stores.samples.flush();
  // The samples stored before the upgrade are the ones read back, beside the two new ones.
  const base = records[0].key.slice(0, records[0].key.lastIndexOf('#'));
  const [read] = await stores.samples.getQuestions([base], 6);
  expect(read.slice(0, 4)).toEqual(await sampled.get([0, 1, 2, 3].map((i) => `${base}#${i}`)));
  expect(read.slice(4).every((s) => s !== undefined)).toBe(true);
  stores.db.close();
});

test('the upgrade moves more samples than one read holds, keys of any shape, and a question whose keys do not sort together', async () => {
  const sample = (answer: string) => extractSample(`Answer: ${answer}\nConfidence: 50%`, 'stop');
  const records: StoredSample[] = [];
  // 130 questions × 50 = 6,500 samples: more than one chunk of the upgrade's reads (5,000), a question cut by the chunk's end.
  for (let q = 0; q < 130; q++) for (let i = 0; i < 50; i++) records.push(stored(`s1:${String(q).padStart(4, '0')}#${i}`, sample(`${q}/${i}`), 1000 + i));
  // 'x#a#b' belongs to group 'x#a', which sorts among the keys of 'x': the group comes back after 'x#a#…' is left.
  records.push(stored('x#0', sample('x0')), stored('x#a#b', sample('xab')), stored('x#z', sample('xz')), stored('x#a#c', sample('xac')));
  // A key without '#', an index written with a leading zero, and one that looks like a prototype's name.
  records.push(stored('plain', sample('plain')), stored('s1:0000#007', sample('padded')), stored('odd#__proto__', sample('proto')));
  const name = `migrate-big-${Math.random()}`;
  await databaseAtVersion5(name, records);
  const stores = await openStores(name);
  expect(await stores.samples.get(records.map((r) => r.key))).toEqual(records.map((r) => r.sample));
  expect(await stores.db.count('questionSamples')).toBe(130 + 4);
  const first = await stores.db.get('questionSamples', 's1:0000');
  expect(first!.slots).toHaveLength(51);
  expect(first!.samples).toHaveLength(51);
  expect(first!.storedAt).toBe(1049);
  // '007' is not index 7: reading by index sees 50 samples, index 7 the one stored under '#7'.
  const [read] = await stores.samples.getQuestions(['s1:0000'], 60);
  expect(read.filter(Boolean)).toHaveLength(50);
  expect(read[7]?.answer).toBe('0/7');
  const [slots] = await stores.samples.storedIndices(['s1:0000'], 60);
  expect(slots).toEqual(read.map((s) => s !== undefined));
  expect([...(await stores.db.get('questionSamples', 'x#a'))!.slots].sort()).toEqual(['b', 'c']);
  stores.db.close();
});

test('a new database has the by-question stores and never the per-sample one', async () => {
  const stores = await openStores(`fresh-v6-${Math.random()}`);
  expect(Array.from(stores.db.objectStoreNames)).toEqual(expect.arrayContaining(['questionSamples', 'questionSlots', 'entailment', 'usage']));
  expect(Array.from(stores.db.objectStoreNames)).not.toContain('samples');
  stores.db.close();
});
