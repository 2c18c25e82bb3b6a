/**
 * First load of the demo report in Chromium, and the first page's JavaScript size.
 *
 * Load time: from navigation start (performance.timeOrigin) to the first reliability-diagram
 * bar in the DOM, with a fresh browser context each time (cold HTTP cache), median of runs.
 * Size: every script the first page fetched, gzip level 9, summed. Targets: < 600 ms and at most
 * 100 KB gzip (the demo report is scored when the app is built, so the page only fetches and draws
 * it: src/demo/vite-plugin-demo-report.ts). The demo report file's own size is printed beside.
 */
import { gzipSync } from 'node:zlib';
import { median, startApp } from './report-app-server';

const RUNS = 7;
const TARGET_MS = 600;
const TARGET_KB = 100;

export default async function firstLoadBench(): Promise<void> {
  const app = await startApp();
  try {
    const times: number[] = [];
    let scripts: { url: string; raw: number; gzip: number }[] = [];
    let files: { url: string; raw: number; gzip: number }[] = [];
    for (let run = 0; run < RUNS; run++) {
      const context = await app.browser.newContext({ viewport: { width: 1280, height: 900 } });
      const page = await context.newPage();
      const pending: Promise<{ url: string; raw: number; gzip: number }>[] = [];
      const data: Promise<{ url: string; raw: number; gzip: number }>[] = [];
      page.on('response', (res) => {
        if (res.url().endsWith('.json')) {
          data.push(res.body().then((body) => ({ url: new URL(res.url()).pathname, raw: body.length, gzip: gzipSync(body, { level: 9 }).length })));
        } else if (res.request().resourceType() === 'script' || res.url().endsWith('.js')) {
          pending.push(res.body().then((body) => ({ url: new URL(res.url()).pathname, raw: body.length, gzip: gzipSync(body, { level: 9 }).length })));
        }
      });
      await page.goto(app.url);
      await page.waitForFunction(() => document.querySelector('[data-chart="reliability"] rect.bar') !== null, undefined, { polling: 'raf', timeout: 30_000 });
      times.push(await page.evaluate(() => performance.now()));
      await page.waitForLoadState('networkidle');
      scripts = await Promise.all(pending);
      files = await Promise.all(data);
      await context.close();
    }
    const gzip = scripts.reduce((s, x) => s + x.gzip, 0);
    const raw = scripts.reduce((s, x) => s + x.raw, 0);
    const mid = median(times);
    const kb = gzip / 1024;
    console.log(`first load of the demo report: median ${mid.toFixed(0)} ms, min ${Math.min(...times).toFixed(0)} ms, max ${Math.max(...times).toFixed(0)} ms over ${RUNS} cold loads (target < ${TARGET_MS} ms: ${mid < TARGET_MS ? 'met' : 'NOT met'})`);
    console.log(`first page JavaScript: ${kb.toFixed(1)} KB gzip (${(raw / 1024).toFixed(1)} KB raw) in ${scripts.length} files (target ≤ ${TARGET_KB} KB gzip: ${kb <= TARGET_KB ? 'met' : 'NOT met'})`);
    for (const f of files) console.log(`  data ${f.url}  ${(f.gzip / 1024).toFixed(1)} KB gzip (${(f.raw / 1024).toFixed(1)} KB raw)`);
    for (const s of scripts.sort((a, b) => b.gzip - a.gzip)) console.log(`  ${s.url}  ${(s.gzip / 1024).toFixed(1)} KB gzip`);
  } finally {
    await app.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  firstLoadBench().catch((err) => {
    console.error(err);
    process.exitCode = 1;
  });
}
