import 'fake-indexeddb/auto';
import { afterAll, expect, test } from 'vitest';
import { KeyRing } from '../../../../src/ui/state/keys.svelte';
import { openStores } from '../../../../src/store/stores';
import { keyId } from '../../../../src/model/run-spec';
import { createRunWorkerApi } from '../../../../src/workers/run-worker-api';
import type { RunWorkerApi } from '../../../../src/workers/protocol';
import { connectApi, exposeApi } from '../../../../src/workers/worker-connection';

// The page's key ring talks to the run worker, which owns the database; here it is served over a MessageChannel.
const dbName = `keys-${Math.random()}`;
const { port1, port2 } = new MessageChannel();
exposeApi(createRunWorkerApi({ dbName, crossTab: null }), port1);
const worker = connectApi<RunWorkerApi>(() => port2, { name: 'run' }).api;
afterAll(() => {
  port1.close();
  port2.close();
});

const openai = { preset: 'openai', baseUrl: 'https://api.openai.com/v1' };
const groq = { preset: 'groq', baseUrl: 'https://api.groq.com/openai/v1' };
const local = { preset: 'vllm', baseUrl: 'http://127.0.0.1:8000/v1' };

test('a key typed in stays in memory only; "remember" stores it, "forget" removes it from the device and the tab', async () => {
  const ring = new KeyRing(worker);
  await ring.load();
  ring.setMemory(openai, 'sk-memory-only');
  const settings = (await openStores(dbName)).settings;
  expect(await settings.rememberedKeys()).toEqual({});

  await ring.set(groq, 'gsk-remembered', { remember: true });
  expect(await settings.rememberedKeys()).toEqual({ [keyId(groq)]: 'gsk-remembered' });
  expect(ring.isRemembered(groq)).toBe(true);

  // A new tab finds only the remembered key.
  const next = new KeyRing(worker);
  await next.load();
  expect(next.get(groq)).toBe('gsk-remembered');
  expect(next.get(openai)).toBe('');

  await next.forget(groq);
  expect(next.get(groq)).toBe('');
  expect(await settings.rememberedKeys()).toEqual({});
});

test('a run gets only the keys of its own providers, each under its provider', async () => {
  const ring = new KeyRing(worker);
  ring.setMemory(openai, 'sk-a');
  ring.setMemory(groq, 'gsk-b');
  expect(ring.forModels([openai, local])).toEqual({ [keyId(openai)]: 'sk-a' });
  // The same preset at another address is another provider: no key goes there.
  expect(ring.forModels([{ preset: 'openai', baseUrl: 'https://evil.example/v1' }])).toEqual({});
});
