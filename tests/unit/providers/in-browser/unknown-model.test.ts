/**
 * A model id that is not there (a typo, or a model without ONNX weights): the in-process model's
 * load error names the id, says no model with ONNX files was found, and where it looked (the
 * folder, and the model hub by its host), instead of "its files were not found". Real
 * Transformers.js loading, against the repository's models folder and a loopback hub that
 * knows no model (404 for every file).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { loadGenerator } from '../../../../src/providers/in-browser/generate';

const MODELS = path.resolve(import.meta.dirname, '../../../../public/models');
let hub: Server;
let hubUrl: string;
const asked: string[] = [];

beforeAll(async () => {
  hub = createServer((req, res) => {
    asked.push(req.url ?? '');
    // As huggingface.co answers for a repository that does not exist: 401, not 404.
    const status = req.url?.includes('/as-hf/') ? 401 : 404;
    res.writeHead(status, { 'content-type': 'text/plain' });
    res.end(status === 401 ? 'Repository not found' : 'Entry not found');
  });
  await new Promise<void>((resolve) => hub.listen(0, '127.0.0.1', resolve));
  hubUrl = `http://127.0.0.1:${(hub.address() as AddressInfo).port}/`;
});
afterAll(() => new Promise<void>((resolve) => hub.close(() => resolve())));

test('an id not in the models folder, remote models off: named, with the folder it is not in', async () => {
  const e = await loadGenerator({ model: 'nobody/no-such-model', localModelPath: MODELS, allowRemoteModels: false }).catch((x: Error) => x);
  expect(e).toMatchObject({ name: 'ModelLoadError' });
  expect((e as Error).message).toBe(
    `could not load "nobody/no-such-model": no model "nobody/no-such-model" with ONNX files (tokenizer_config.json, config.json, onnx/*.onnx) was found at ${MODELS}/nobody/no-such-model (remote models are not allowed); check the model id, or choose a model with ONNX weights`,
  );
});

test('an id the model hub does not know: named, with the hub by its host', async () => {
  const e = await loadGenerator({ model: 'nobody/typo-model', localModelPath: null, allowRemoteModels: true, remoteHost: hubUrl }).catch((x: Error) => x);
  expect(asked.some((u) => u.includes('nobody/typo-model'))).toBe(true);
  const host = new URL(hubUrl).host;
  expect((e as Error).message).toBe(
    `could not load "nobody/typo-model": no model "nobody/typo-model" with ONNX files (tokenizer_config.json, config.json, onnx/*.onnx) was found at the model hub at ${host}; check the model id, or choose a model with ONNX weights`,
  );
});

test('an id the Hugging Face hub answers with 401 (its answer for a repository that does not exist): named as unknown, private or gated', async () => {
  const e = await loadGenerator({ model: 'as-hf/missing-model', localModelPath: null, allowRemoteModels: true, remoteHost: hubUrl }).catch((x: Error) => x);
  expect((e as Error).message).toBe(
    `could not load "as-hf/missing-model": no model "as-hf/missing-model" with ONNX files (tokenizer_config.json, config.json, onnx/*.onnx) was found at the model hub at ${new URL(hubUrl).host} (the hub refused access: the id is unknown, or the model is private or gated); check the model id, or choose a model with ONNX weights`,
  );
});
