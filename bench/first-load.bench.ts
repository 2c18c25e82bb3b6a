/**
 * First load of the demo report in Chromium, and the first page's JavaScript size.
 *
 * Load time: from navigation start (performance.timeOrigin) to the first reliability-diagram
 * bar in the DOM, with a fresh browser context each time (cold HTTP cache), median of runs.
 * Size: every script the first page fetched, gzip level 9, summed. Targets: < 1 s, < 150 KB.
 */
import { gzipSync } from 'node:zlib';
import { median, startApp } from './report-app-server';

const RUNS = 7;

export default async function firstLoadBench(): Promise<void> {
  const app = await startApp();
  try {
    const times: number[] = [];
    let scripts: { url: string; raw: number; gzip: number }[] = [];
    for (let run = 0; run < RUNS; run++) {
      const context = await app.browser.newContext({ viewport: { width: 1280, height: 900 } });
      const page = await context.newPage();
      const pending: Promise<{ url: string; raw: number; gzip: number }>[] = [];
      page.on('response', (res) => {
        if (res.request().resourceType() === 'script' || res.url().endsWith('.js')) {
          pending.push(res.body().then((body) => ({ url: new URL(res.url()).pathname, raw: body.length, gzip: gzipSync(body, { level: 9 }).length })));
        }
      });
      await page.goto(app.url);
      await page.waitForFunction(() => document.querySelector('[data-chart="reliability"] rect.bar') !== null, undefined, { polling: 'raf', timeout: 30_000 });
      times.push(await page.evaluate(() => performance.now()));
      await page.waitForLoadState('networkidle');
      scripts = await Promise.all(pending);
      await context.close();
    }
    const gzip = scripts.reduce((s, x) => s + x.gzip, 0);
    const raw = scripts.reduce((s, x) => s + x.raw, 0);
    console.log(`first load of the demo report: median ${median(times).toFixed(0)} ms, min ${Math.min(...times).toFixed(0)} ms, max ${Math.max(...times).toFixed(0)} ms over ${RUNS} cold loads (target < 1000 ms)`);
    console.log(`first page JavaScript: ${(gzip / 1024).toFixed(1)} KB gzip (${(raw / 1024).toFixed(1)} KB raw) in ${scripts.length} files (target < 150 KB gzip)`);
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
