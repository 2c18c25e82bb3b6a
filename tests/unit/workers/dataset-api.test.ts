import { afterAll, beforeAll, expect, test } from 'vitest';
import { catalogueEntry } from '../../../src/hub/catalogue';
import { NO_HUB_CACHE } from '../../../src/model/hub-file-cache';
import { datasetWorkerApi } from '../../../src/workers/dataset-api';
import { catalogueRepos } from '../../mock/hub-datasets';
import { startMockHub, type MockHub } from '../../mock/hub-server';

let hub: MockHub;
beforeAll(async () => {
  hub = await startMockHub(catalogueRepos());
});
afterAll(() => hub.close());

test('a load gives the preview and the questions; a new mapping re-reads the same table without fetching', async () => {
  const api = datasetWorkerApi(async () => NO_HUB_CACHE);
  expect((await api.remapHub({ question: 'question' })).ok).toBe(false);
  const e = catalogueEntry('nq-open')!;
  const loaded = await api.loadHub({ source: e.source, hubUrl: hub.url, mapping: e.mapping });
  if (!loaded.ok) throw new Error(loaded.error.message);
  expect(loaded.value.preview.totalRows).toBe(2);
  expect(loaded.value.preview.columns).toEqual(['question', 'answer']);
  expect(loaded.value.source).toBe('hub:google-research-datasets/nq_open:nq_open/validation');
  expect(loaded.value.read.ok && loaded.value.read.value.dataset.questions).toHaveLength(2);
  const before = hub.requests.length;
  // The question used as the answer as well: a different reading of the same rows.
  const remapped = await api.remapHub({ question: 'question', answer: 'answer', ignored: 'ignore' });
  expect(hub.requests.length).toBe(before);
  expect(remapped.ok && remapped.value.dataset.questions[1]).toEqual({ id: 'q0002', question: 'who wrote hamlet', answer: 'William Shakespeare' });
});

test('a file is decoded and parsed in the worker: its layout recognised or a mapping asked for, then read again with the mapping', async () => {
  const api = datasetWorkerApi(async () => NO_HUB_CACHE);
  // UTF-16 LE with its BOM, as a spreadsheet may save it.
  const text = 'frage,antwort\nWhat is 2+2?,4\n';
  const utf16 = new Uint8Array([0xff, 0xfe, ...new Uint8Array(new Uint16Array([...text].map((c) => c.charCodeAt(0))).buffer)]);
  const first = await api.readFile(utf16, 'quiz.csv', { keepTextUpTo: 1000 });
  if (!first.ok) throw new Error(first.error.message);
  expect(first.value.text).toBe(text);
  expect(first.value.preview.columns).toEqual(['frage', 'antwort']);
  expect(!first.value.read.ok && first.value.read.error.message).toMatch(/map the columns/);
  const mapped = await api.remapFile({ frage: 'question', antwort: 'answer' });
  expect(mapped.ok && mapped.value.dataset.questions).toEqual([{ id: 'q0001', question: 'What is 2+2?', answer: '4' }]);
  // Text over the limit is not handed back; a broken file is refused with its line.
  const noText = await api.readFile(new TextEncoder().encode('question,answer\nA?,a\n'), 'a.csv', { keepTextUpTo: 5 });
  expect(noText.ok && noText.value.text).toBeUndefined();
  const broken = await api.readFile(new TextEncoder().encode('{"question":"A?","answer":"a"}\n{"question":\n'), 'b.jsonl');
  expect(!broken.ok && broken.error.where).toBe('b.jsonl line 2');
});
