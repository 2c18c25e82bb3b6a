import 'fake-indexeddb/auto';
import { afterAll, beforeAll, expect, test, vi } from 'vitest';
import * as Comlink from 'comlink';
import { createRunWorkerApi } from '../../../src/workers/run-worker-api';
import { registerErrorTransfer } from '../../../src/workers/transfer';
import type { RunUpdate, RunWorkerApi } from '../../../src/workers/protocol';
import { keyId, type RunSpec } from '../../../src/model/run-spec';
import { MockProviderServer } from '../../mock/provider-server';

const KEY = 'sk-worker-test-0123456789abcdef';
let mock: MockProviderServer;
let remote: Comlink.Remote<RunWorkerApi>;
const ports: MessagePort[] = [];

beforeAll(async () => {
  registerErrorTransfer();
  mock = await MockProviderServer.start({ apiKey: KEY, latencyMs: 5, questions: [{ match: 'Which river flows through Cairo?', id: 'nile', answers: { Nile: 0.9, Niger: 0.1 } }] });
  const { port1, port2 } = new MessageChannel();
  ports.push(port1, port2);
  Comlink.expose(createRunWorkerApi({ dbName: `worker-${Math.random()}` }), port1);
  remote = Comlink.wrap<RunWorkerApi>(port2);
});
afterAll(async () => {
  for (const p of ports) p.close();
  await mock?.close();
});

const model = () => ({ kind: 'openai' as const, preset: 'openai', baseUrl: `${mock.url}/v1`, model: 'gpt-4o-mini' });
const spec = (): RunSpec => ({
  title: 'worker test',
  dataset: { name: 'rivers', source: 'test', questions: [{ id: 'nile', question: 'Which river flows through Cairo?', answer: 'Nile' }] },
  models: [model()],
  sampling: { n: 8, temperature: 1, maxTokens: 64, prompt: 'Q: {question}\nAnswer: …\nConfidence: …%', concurrency: 2 },
  clustering: { method: 'exact' },
  grading: { method: 'alias' },
});

test('a run started through the worker reports progress through the callback and ends with a saved report', async () => {
  const updates: RunUpdate[] = [];
  let finished!: () => void;
  const done = new Promise<void>((resolve) => (finished = resolve));
  const started = await remote.start(spec(), { [keyId(model())]: KEY }, Comlink.proxy((u: RunUpdate) => {
    updates.push(u);
    if (u.status === 'done' || u.status === 'failed') finished();
  }));
  expect(started.ok).toBe(true);
  await done;
  const last = updates.at(-1)!;
  expect(last).toMatchObject({ status: 'done', reportId: started.ok ? started.value.runId : '' });
  expect(last.progress.samples).toEqual({ done: 8, total: 8 });
  // Samples never go backwards from one update to the next.
  const dones = updates.map((u) => u.progress.samples.done);
  expect(dones).toEqual([...dones].sort((a, b) => a - b));
  expect(mock.stats().served.nile).toBe(8);

  const listed = await remote.listRuns();
  expect(listed.ok && listed.value.runs.map((r) => [r.status, r.questionCount, r.spec.dataset.questions.length, r.live])).toEqual([['done', 1, 0, false]]);
  expect(JSON.stringify(listed)).not.toContain(KEY);
});

test('expected failures come back as values with their cause, never as a throw, and never with the key', async () => {
  const missing = await remote.status('no-such-run');
  expect(missing).toMatchObject({ ok: false, error: { kind: 'not-found' } });
  expect(await remote.pause('no-such-run')).toMatchObject({ ok: false, error: { kind: 'not-running' } });

  const wrong = 'sk-wrong-key-zyxwvutsrqponm';
  const check = await remote.testConnection(model(), wrong);
  expect(check).toMatchObject({ ok: false, error: { kind: 'auth', status: 401 } });
  expect(JSON.stringify(check)).not.toContain(wrong);
  const right = await remote.testConnection(model(), KEY);
  expect(right.ok).toBe(true);
});

test('a run that fails on a bad key is stored as failed with its cause; deleting it removes it', async () => {
  // More samples than the first run stored, so a request must go out.
  const started = await remote.start({ ...spec(), sampling: { ...spec().sampling, n: 12 } }, { [keyId(model())]: 'sk-bad-key-000000000000' });
  expect(started.ok).toBe(true);
  const runId = started.ok ? started.value.runId : '';
  // Polled until the worker lets go of the run, however long a loaded machine takes.
  const status = await vi.waitFor(async () => {
    const s = await remote.status(runId);
    if (s.ok && s.value.live) throw new Error('the run is still live');
    return s;
  }, { timeout: 30_000, interval: 20 });
  expect(status).toMatchObject({ ok: true, value: { status: 'failed', error: { kind: 'auth' } } });
  expect(await remote.deleteRun(runId)).toEqual({ ok: true, value: true });
  expect(await remote.status(runId)).toMatchObject({ ok: false, error: { kind: 'not-found' } });
});

test('a base URL with a password in it is refused at start: nothing stored, nothing sent, the password not echoed', async () => {
  const before = await remote.listRuns();
  mock.resetStats();
  const withCredentials = { ...model(), baseUrl: mock.url.replace('://', '://alice:hunter2pass@') + '/v1' };
  const started = await remote.start({ ...spec(), models: [withCredentials] }, { [keyId(withCredentials)]: KEY });
  expect(started.ok).toBe(false);
  const message = started.ok ? '' : started.error.message;
  expect(message).toMatch(/^The base URL of gpt-4o-mini on OpenAI contains a user name and password \(http:\/\/\*\*\*@127\.0\.0\.1:\d+\/v1\)\. /);
  expect(message).not.toContain('hunter2pass');
  expect(message).not.toContain('alice');
  const after = await remote.listRuns();
  expect(after.ok && after.value.runs.length).toBe(before.ok && before.value.runs.length);
  expect(mock.stats().requests).toBe(0);
  // The connection check says the same, at once.
  const check = await remote.testConnection(withCredentials, KEY);
  expect(check.ok).toBe(false);
  expect(check.ok ? '' : check.error.message).toMatch(/^The base URL for OpenAI contains a user name and password/);
});

test('a run started with a key is not resumed without it: refused before anything is sent, in words that name the provider', async () => {
  // One reply per request, so the run is still sampling when it is paused.
  mock.configure({ latencyMs: 20, maxN: { openai: 1 } });
  const keys = { [keyId(model())]: KEY };
  const started = await remote.start({ ...spec(), sampling: { ...spec().sampling, n: 40, concurrency: 1 } }, keys);
  const runId = started.ok ? started.value.runId : '';
  await vi.waitFor(() => {
    if ((mock.stats().served.nile ?? 0) < 4) throw new Error('no new sample yet');
  }, { timeout: 30_000, interval: 10 });
  expect(await remote.pause(runId)).toEqual({ ok: true, value: 'paused' });
  mock.resetStats();
  const refused = await remote.resume(runId, {});
  expect(refused).toEqual({ ok: false, error: { kind: 'key-not-remembered', message: `The key for OpenAI (${new URL(mock.url).host}) was not remembered on this device, so nothing was sent: enter it, then resume.` } });
  expect(mock.stats().requests).toBe(0);
  expect(await remote.status(runId)).toMatchObject({ ok: true, value: { status: 'paused', live: false } });
  expect((await remote.resume(runId, keys)).ok).toBe(true);
  expect(await remote.pause(runId)).toMatchObject({ ok: true });
  mock.configure({ latencyMs: 5, maxN: {} });
});
