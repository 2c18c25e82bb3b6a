import { afterAll, beforeAll, expect, test } from 'vitest';
import { catalogueEntry } from '../../../src/hub/catalogue';
import { NO_HUB_CACHE } from '../../../src/model/hub-file-cache';
import { hubDatasetApi } from '../../../src/workers/hub-dataset-api';
import { catalogueRepos } from '../../mock/hub-datasets';
import { startMockHub, type MockHub } from '../../mock/hub-server';

let hub: MockHub;
beforeAll(async () => {
  hub = await startMockHub(catalogueRepos());
});
afterAll(() => hub.close());

test('a load gives the preview and the questions; a new mapping re-reads the same table without fetching', async () => {
  const api = hubDatasetApi(async () => NO_HUB_CACHE);
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
