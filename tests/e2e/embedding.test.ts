/**
 * The embedding path in Chromium: the built app's own worker loads the repo's tiny ONNX model
 * from /models/ through Transformers.js (remote models off) and runs it on ONNX Runtime WASM
 * served by the app itself. The page must request nothing off loopback.
 */
import { afterAll, beforeAll, expect, inject, test } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchChromium, openPage } from './chromium';

interface Hook {
  progress: { status: string; file?: string }[];
  init(): Promise<{ ok: boolean; value?: { device: string; model: string; note?: string }; error?: { message: string } }>;
  embed(texts: string[]): Promise<number[][]>;
  cluster(answers: string[], threshold: number): Promise<{ ok: boolean; value?: { label: string; members: number[] }[] }>;
}
declare const __semece: Hook;

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

const cosine = (a: number[], b: number[]) => a.reduce((s, x, i) => s + x * b[i], 0);

test('tiny model in the browser worker: loads from the app, embeds, clusters, stays on loopback', async () => {
  const { page, consoleErrors, offLoopback, context } = await openPage(browser);
  const requested: string[] = [];
  page.on('request', (r) => requested.push(r.url()));
  await page.goto(new URL('tests/e2e/embedding-page/index.html', inject('appUrl')).href);
  await page.locator('#status', { hasText: 'ready' }).waitFor({ timeout: 60_000 });

  const init = await page.evaluate(() => __semece.init());
  expect(init.error?.message).toBeUndefined();
  expect(init).toMatchObject({ ok: true, value: { model: 'tiny-embedder', device: 'wasm' } });
  // This Chromium runs with --disable-gpu: where navigator.gpu exists, WebGPU must have been
  // tried, failed or disagreed, and WASM chosen with the reason.
  if (await page.evaluate(() => 'gpu' in navigator)) expect(init.value?.note).toMatch(/WebGPU/);
  const progress = await page.evaluate(() => __semece.progress);
  expect(progress.some((p) => p.status === 'ready')).toBe(true);

  const [paris, cityOfParis, lyon, two, digit2] = await page.evaluate(() => __semece.embed(['Paris', 'the city of Paris', 'Lyon', 'two', '2']));
  expect(paris).toHaveLength(32);
  expect(cosine(paris, paris)).toBeCloseTo(1, 5);
  expect(cosine(paris, cityOfParis)).toBeGreaterThan(0.9);
  expect(cosine(two, digit2)).toBeGreaterThan(0.9);
  expect(cosine(paris, lyon)).toBeLessThan(0.6);

  const clustered = await page.evaluate(() => __semece.cluster(['Paris', 'Lyon', 'the city of Paris', 'paris.', 'two', '2'], 0.85));
  expect(clustered).toEqual({
    ok: true,
    value: [
      { label: 'Paris', members: [0, 2, 3] },
      { label: 'Lyon', members: [1] },
      { label: 'two', members: [4, 5] },
    ],
  });

  // Model files and the ONNX Runtime binary came from the app itself.
  const appOrigin = new URL(inject('appUrl')).origin;
  expect(requested.some((u) => u.startsWith(`${appOrigin}/models/tiny-embedder/onnx/model_quantized.onnx`))).toBe(true);
  expect(requested.some((u) => u.startsWith(appOrigin) && /ort-wasm-simd-threaded.*\.wasm$/.test(u))).toBe(true);
  expect(offLoopback).toEqual([]);
  expect(consoleErrors).toEqual([]);
  await context.close();
});
