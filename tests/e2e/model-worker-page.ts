/**
 * What the browser tests of the in-page model workers (embedding, NLI, generation) share: each
 * drives the real client and worker on a test-only page (tests/e2e/<kind>-page/) over a tiny model
 * the app ships, and checks the same things around its own: the model loaded on WASM (WebGPU
 * tried and refused with its reason where the browser exposes it, since this Chromium has no GPU),
 * its files and ONNX Runtime's binary served by the app itself, nothing off loopback, no errors.
 */
import { expect, inject } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { openPage } from './chromium';

interface InitResult {
  ok: boolean;
  value?: { device: string; model: string; note?: string };
  error?: { message: string };
}

export type ModelWorkerPage = Awaited<ReturnType<typeof openPage>> & { requested: string[] };

/** Opens tests/e2e/<dir>/index.html with every request recorded, once its hook is ready. */
export async function openModelWorkerPage(browser: Browser, dir: string): Promise<ModelWorkerPage> {
  const opened = await openPage(browser);
  const requested: string[] = [];
  opened.page.on('request', (r) => requested.push(r.url()));
  await opened.page.goto(new URL(`tests/e2e/${dir}/index.html`, inject('appUrl')).href);
  await opened.page.locator('#status', { hasText: 'ready' }).waitFor({ timeout: 60_000 });
  return { ...opened, requested };
}

/** The page hook's init(): `model` loaded on WASM, with the reason WebGPU was not used where it exists. */
export async function expectLoadedOnWasm(page: Page, model: string): Promise<InitResult> {
  const init = await page.evaluate(() => (globalThis as unknown as { __semece: { init(): Promise<InitResult> } }).__semece.init());
  expect(init.error?.message).toBeUndefined();
  expect(init).toMatchObject({ ok: true, value: { model, device: 'wasm' } });
  if (await page.evaluate(() => 'gpu' in navigator)) expect(init.value?.note).toMatch(/WebGPU/);
  return init;
}

/** `model`'s weights (`onnx/<weights>`) and the ONNX Runtime binary came from the app, nothing left loopback, nothing logged an error; closes the page. */
export async function expectServedByAppAndClose(opened: ModelWorkerPage, model: string, weights = 'model_quantized.onnx'): Promise<void> {
  const appOrigin = new URL(inject('appUrl')).origin;
  expect(opened.requested.some((u) => u.startsWith(`${appOrigin}/models/${model}/onnx/${weights}`))).toBe(true);
  expect(opened.requested.some((u) => u.startsWith(appOrigin) && /ort-wasm-simd-threaded.*\.wasm$/.test(u))).toBe(true);
  expect(opened.offLoopback).toEqual([]);
  expect(opened.consoleErrors).toEqual([]);
  await opened.context.close();
}
