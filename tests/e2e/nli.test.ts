/**
 * Entailment clustering in Chromium: the built app's own NLI worker loads the repo's tiny
 * classifier from /models/ through Transformers.js (remote models off), runs text pairs on ONNX
 * Runtime WASM served by the app itself, and the entailment clusterer groups answers as the
 * model's designed decisions say. The page must request nothing off loopback.
 */
import { afterAll, beforeAll, expect, inject, test } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchChromium, openPage } from './chromium';

type Classes = { label: string; members: number[] }[];
interface Hook {
  progress: { status: string; file?: string }[];
  loads: { status: string; role?: string; device?: string }[];
  init(): Promise<{ ok: boolean; value?: { device: string; model: string; note?: string }; error?: { message: string } }>;
  decide(pairs: { premise: string; hypothesis: string }[]): Promise<string[]>;
  cluster(question: string, answers: string[]): Promise<{ result: { ok: boolean; value?: Classes; error?: { message: string } }; decided: number }>;
}
declare const __semece: Hook;

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

test('tiny NLI model in the browser worker: loads from the app, decides pairs, clusters by entailment, stays on loopback', async () => {
  const { page, consoleErrors, offLoopback, context } = await openPage(browser);
  const requested: string[] = [];
  page.on('request', (r) => requested.push(r.url()));
  await page.goto(new URL('tests/e2e/nli-page/index.html', inject('appUrl')).href);
  await page.locator('#status', { hasText: 'ready' }).waitFor({ timeout: 60_000 });

  const init = await page.evaluate(() => __semece.init());
  expect(init.error?.message).toBeUndefined();
  expect(init).toMatchObject({ ok: true, value: { model: 'tiny-nli', device: 'wasm' } });
  // This Chromium runs with --disable-gpu: where navigator.gpu exists, WebGPU must have been
  // tried, failed or disagreed, and WASM chosen with the reason.
  if (await page.evaluate(() => 'gpu' in navigator)) expect(init.value?.note).toMatch(/WebGPU/);
  expect((await page.evaluate(() => __semece.progress)).some((p) => p.status === 'ready')).toBe(true);
  expect((await page.evaluate(() => __semece.loads)).at(-1)).toMatchObject({ status: 'ready', role: 'nli', device: 'wasm' });

  const q = 'What is the capital of France?';
  const labels = await page.evaluate((q) => __semece.decide([
    { premise: `${q} Paris`, hypothesis: `${q} Paris, France` },
    { premise: `${q} Paris`, hypothesis: `${q} Lyon` },
    { premise: `${q} Paris`, hypothesis: `${q} Paris in 1900` },
  ]), q);
  expect(labels).toEqual(['entailment', 'contradiction', 'neutral']);

  const answers = ['Paris', 'Lyon', 'Paris, France', 'paris.', 'Lyon', 'Paris in 1900', 'Marseille'];
  const first = await page.evaluate(([q, a]) => __semece.cluster(q as string, a as string[]), [q, answers] as const);
  expect(first.result).toEqual({
    ok: true,
    value: [
      { label: 'Paris', members: [0, 2, 3] },
      { label: 'Lyon', members: [1, 4] },
      { label: 'Paris in 1900', members: [5] },
      { label: 'Marseille', members: [6] },
    ],
  });
  expect(first.decided).toBeGreaterThan(0);
  // The same answers again: every decision comes from the cache, the worker is asked nothing.
  const second = await page.evaluate(([q, a]) => __semece.cluster(q as string, a as string[]), [q, answers] as const);
  expect(second).toEqual(first);

  // Model files and the ONNX Runtime binary came from the app itself.
  const appOrigin = new URL(inject('appUrl')).origin;
  expect(requested.some((u) => u.startsWith(`${appOrigin}/models/tiny-nli/onnx/model_quantized.onnx`))).toBe(true);
  expect(requested.some((u) => u.startsWith(appOrigin) && /ort-wasm-simd-threaded.*\.wasm$/.test(u))).toBe(true);
  expect(offLoopback).toEqual([]);
  expect(consoleErrors).toEqual([]);
  await context.close();
});
