/**
 * Batch ingest at paper scale, in Chromium: a result file of 2,000,000 replies (40,000 questions ×
 * 50, OpenAI batch output format, generated on the fly into a temp file and never committed) is
 * loaded through a file input and stored in IndexedDB by the app's own code (SampleRequestSet,
 * ingestSampleResults, IdbSampleCache) in a module worker; then a run over those questions is
 * started in the app's run worker, which finds every sample cached (its provider points at a
 * closed loopback port: any request would fail) and goes on to the first report.
 *
 * Printed: replies/s of the ingest, time to the first report, the longest main-thread task while
 * the workers ran, and peak memory (JS heaps of the page and of each worker by CDP
 * Runtime.getHeapUsage, and the peak resident size of all of this
 * browser's processes from /proc, as a plain sum and with shared pages counted once, beside what
 * the idle page holds before any work). SEMECE_BENCH_TRACE=1 prints each 0.5 s sample. The browser runs on a persistent profile in a temp directory. SEMECE_BENCH_REPLIES sets the size (default 2000000; a
 * multiple of 50); SEMECE_SKIP_BUILD=1 reuses the bench page's last build.
 *
 * The page is a bench-only entry built with Vite from these modules (node_modules/.cache), served
 * by vite preview: the production bundle has no hook to drive the ingest from outside.
 *
 * Then the same file in Node: `semece sample --batch read` (the CLI's launcher, a child process)
 * stores it in OUT.cache.jsonl and writes the rows; its replies/s and peak resident size are
 * printed, and `semece cluster` (exact), `grade` (alias) and `score` over those 40,000 rows are
 * timed after it (SEMECE_BENCH_SKIP_SCORE=1 leaves them out). SEMECE_BENCH_NODE_ONLY=1 runs only
 * this Node half; with it, SEMECE_BENCH_KEEP=1 keeps the files (and says where) to run the
 * commands again by hand.
 *
 * Node figures (peak resident of the command's process tree): the sample cache kept every reply
 * in memory until commit e1b5bf0 (1.19 GB for `sample --batch read`; 760 MB after, most of it
 * garbage not yet collected: it runs in 325 MB with --max-old-space-size=200); cluster and grade
 * read their whole --in file and held every row until the next commit (cluster exact 1.24 GB,
 * grade alias 641 MB; streamed a window of 2,000 rows at a time: 256 MB and 210 MB). An earlier
 * version of this bench counted the child's resident size twice.
 *
 * Before the by-question layout (DB version 5, one record per sample; commit af836c2) this bench
 * measured, on this 2-core machine shared with other work, 2,093 replies/s for the ingest and
 * 170 s to the first report (issue 16 had 2,387 replies/s and 122 s on a quieter machine);
 * BEFORE below repeats them beside today's figures. Before reports of runs over 500,000 samples
 * left out the per-sample lists (pipeline/report-detail.ts; commit 9c26b76) the first report
 * took 16–18 s and peaked at 1,162 MB proportional (1,688 MB plain sum), run worker heap 386 MB;
 * after it, 10.5 s, 835 MB (1,361 MB) and 177 MB.
 */
import { createWriteStream, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { once } from 'node:events';
import { spawn } from 'node:child_process';
import { build, preview } from 'vite';
import { SampleRequestSet } from '../src/batch/request-set';
import { MemorySampleCache } from '../src/model/sample-cache';
import { DEFAULT_GENERATION_PROMPT } from '../src/pipeline/prompts';
import type { Question } from '../src/model/rows';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS } from '../tests/e2e/chromium';
import { provideChromium } from '../tests/e2e/chromium-provision';

const N = 50;
const MODEL = { kind: 'openai' as const, preset: 'openai', baseUrl: 'http://127.0.0.1:9/v1', model: 'gpt-4o-mini' };
// topP set: the CLI always sends one (default 1), and the request set's tag covers the settings.
const SETTINGS = { temperature: 1, topP: 1, maxTokens: 256 };
const ROOT = path.resolve('node_modules/.cache/semece-batch-bench');
const ANSWERS = ['Paris', 'Lyon', 'Marseille', 'I do not know', 'Nice'];

function pageFiles(): void {
  mkdirSync(ROOT, { recursive: true });
  const src = path.relative(ROOT, path.resolve('src')).split(path.sep).join('/');
  writeFileSync(path.join(ROOT, 'index.html'), '<!doctype html><html><body><input type="file" id="results"><script type="module" src="./main.ts"></script></body></html>\n');
  writeFileSync(path.join(ROOT, 'ingest.worker.ts'), `
import { SampleRequestSet } from '${src}/batch/request-set';
import { ingestSampleResults } from '${src}/batch/ingest';
import { openStores } from '${src}/store';
self.onmessage = async (e: MessageEvent) => {
  const { file, spec } = e.data;
  let peak = 0;
  const mem = () => { const m = (performance as unknown as { memory?: { usedJSHeapSize: number } }).memory; if (m) peak = Math.max(peak, m.usedJSHeapSize); };
  try {
    const stores = await openStores();
    const made = await SampleRequestSet.create(spec);
    if (!made.ok) throw new Error(made.error.message);
    const stream = (file as File).stream().pipeThrough(new TextDecoderStream());
    const report = await ingestSampleResults(made.value, stream, {
      file: (file as File).name, cache: stores.samples,
      onProgress: (p) => { mem(); postMessage({ type: 'progress', ...p }); },
    });
    await stores.samples.flush();
    mem();
    postMessage({ type: 'done', stored: report.stored, lines: report.lines, problems: report.problemCount, failed: report.failed.length, workerPeakHeap: peak || null });
  } catch (err) {
    const e = err as { name?: string; message?: string };
    postMessage({ type: 'error', message: \`\${e?.name ?? 'Error'}: \${e?.message ?? String(err)}\` });
  }
};
`);
  writeFileSync(path.join(ROOT, 'main.ts'), `
import * as Comlink from 'comlink';
import type { RunWorkerApi, RunUpdate } from '${src}/workers/protocol';
import { packRunSpec } from '${src}/workers/run-spec-transfer';
const longtasks: { start: number; duration: number }[] = [];
new PerformanceObserver((l) => { for (const e of l.getEntries()) longtasks.push({ start: e.startTime, duration: e.duration }); }).observe({ type: 'longtask', buffered: true });
// The task that calls the bench (the driver's argument decoded, the first part of the spec packed) apart from the rest.
const longest = (t0: number) => ({
  longestMainTask: Math.max(0, ...longtasks.filter((t) => t.start > t0 || t.start + t.duration < t0).map((t) => t.duration)),
  callingTask: Math.max(0, ...longtasks.filter((t) => t.start <= t0 && t.start + t.duration >= t0).map((t) => t.duration)),
});
const w = window as unknown as Record<string, unknown>;
w.__bench = {
  ingest(spec: unknown) {
    const file = (document.getElementById('results') as HTMLInputElement).files![0];
    const worker = new Worker(new URL('./ingest.worker.ts', import.meta.url), { type: 'module' });
    longtasks.length = 0;
    const t0 = performance.now();
    return new Promise((resolve, reject) => {
      worker.onmessage = (e) => {
        if (e.data.type === 'progress') w.__progress = e.data;
        else if (e.data.type === 'done') { worker.terminate(); resolve({ ...e.data, ms: performance.now() - t0, ...longest(t0) }); }
        else { worker.terminate(); reject(new Error(e.data.message)); }
      };
      worker.onerror = (e) => reject(new Error(e.message));
      worker.postMessage({ file, spec });
    });
  },
  async report(runSpec: unknown) {
    const worker = new Worker(new URL('${src}/workers/run.worker.ts', import.meta.url), { type: 'module' });
    const api = Comlink.wrap<RunWorkerApi>(worker);
    await api.setAppBase(location.href);
    longtasks.length = 0;
    const t0 = performance.now();
    return new Promise((resolve, reject) => {
      // When each stage was first seen: where the time to the first report goes.
      const stages: [string, number][] = [];
      const onProgress = Comlink.proxy((u: RunUpdate) => {
        w.__progress = { stage: u.progress.stage, status: u.status, requests: u.progress.requests };
        if (stages.at(-1)?.[0] !== u.progress.stage) stages.push([u.progress.stage, performance.now() - t0]);
        if (u.status === 'done') resolve({ ms: performance.now() - t0, reportId: u.reportId, requests: u.progress.requests, ...longest(t0), stages });
        else if (u.status === 'failed' || u.status === 'cancelled') reject(new Error(u.error?.message ?? u.status));
      });
      // Packed as the app's run client packs it (JSON parts, the page's thread given back between them).
      packRunSpec(runSpec as never).then((packed) => api.start(packed, {}, onProgress)).then((r) => { if (!r.ok) reject(new Error(r.error.message)); }, reject);
    });
  },
};
`);
}

/** Writes the result file line by line (never whole in memory); returns its size in bytes. */
async function writeResults(file: string, set: SampleRequestSet): Promise<number> {
  const out = createWriteStream(file, { encoding: 'utf8' });
  let bytes = 0;
  let qi = 0;
  for await (const p of set.requests(new MemorySampleCache())) {
    const choices = Array.from({ length: p.count }, (_, j) => {
      const answer = ANSWERS[(qi * 7 + j * j) % (2 + (qi % 4))];
      return { index: j, message: { role: 'assistant', content: `Brief reasoning.\nAnswer: ${answer}\nConfidence: ${50 + ((qi + j) % 50)}%` }, finish_reason: 'stop' };
    });
    const line = JSON.stringify({ id: `batch_req_${qi}`, custom_id: p.customId, response: { status_code: 200, request_id: `r${qi}`, body: { id: `c${qi}`, object: 'chat.completion', model: MODEL.model, choices, usage: { prompt_tokens: 120, completion_tokens: 15 * p.count } } }, error: null }) + '\n';
    bytes += Buffer.byteLength(line);
    if (!out.write(line)) await once(out, 'drain');
    qi++;
  }
  out.end();
  await once(out, 'finish');
  return bytes;
}

/** Resident bytes of a process tree rooted at `root` (the browser this bench launched). */
function treeRss(root: number): number {
  return [...treeRssByKind(root)].filter(([kind]) => kind !== PSS).reduce((a, [, b]) => a + b, 0);
}

/** The entry of treeRssByKind that holds the tree's proportional set size, not a process kind. */
const PSS = 'pss';

/** The same, by Chromium process kind (--type=renderer, gpu-process, utility …; the root is 'browser'). */
function treeRssByKind(root: number): Map<string, number> {
  const parent = new Map<number, number>();
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      parent.set(Number(d), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // The process ended while we looked.
    }
  }
  const rss = new Map<string, number>();
  for (const pid of parent.keys()) {
    let p: number | undefined = pid;
    while (p && p !== root) p = parent.get(p);
    if (p !== root) continue;
    try {
      const bytes = Number(readFileSync(`/proc/${pid}/statm`, 'utf8').split(' ')[1]) * 4096;
      const type = /--type=([\w-]+)/.exec(readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' '))?.[1] ?? (pid === root ? 'browser' : 'other');
      rss.set(type, (rss.get(type) ?? 0) + bytes);
      // Proportional set size: pages shared between processes (the zygote's, the renderer's) counted once in all.
      const pss = /^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'));
      if (pss) rss.set(PSS, (rss.get(PSS) ?? 0) + Number(pss[1]) * 1024);
    } catch {
      // gone
    }
  }
  return rss;
}

function browserPid(): number | undefined {
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === process.pid && /chrom/.test(stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')))) return Number(d);
    } catch {
      // gone
    }
  }
  return undefined;
}

const mb = (b: number) => `${(b / 1048576).toFixed(0)} MB`;
const kinds = (byKind: Map<string, number>) => [...byKind].filter(([kind]) => kind !== 'pss').sort((a, b) => b[1] - a[1]).map(([kind, b]) => `${kind} ${mb(b)}`).join(', ');

/** Measured by this bench at commit af836c2 (one IndexedDB record per sample), 2,000,000 replies: the figures to compare at that size. */
const BEFORE = { browserRepliesPerSecond: 2_093, firstReportSeconds: 170 };

/** Runs the CLI (cli/launcher.mjs) with these arguments; its wall time, exit code, stderr tail and peak resident size. */
async function semece(args: string[]): Promise<{ ms: number; code: number | null; stderr: string; stdout: string; peakRss: number }> {
  const t0 = performance.now();
  const child = spawn(process.execPath, ['cli/launcher.mjs', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  let stdout = '';
  child.stderr.on('data', (d) => (stderr = (stderr + d).slice(-4000)));
  child.stdout.on('data', (d) => (stdout = (stdout + d).slice(-4000)));
  let peakRss = 0;
  const sampler = setInterval(() => {
    // The tree includes the child itself.
    if (child.pid) peakRss = Math.max(peakRss, treeRss(child.pid));
  }, 250);
  const [code] = (await once(child, 'exit')) as [number | null];
  clearInterval(sampler);
  return { ms: performance.now() - t0, code, stderr, stdout, peakRss };
}

/** The Node half: the same result file through `semece sample --batch read`, then cluster, grade and score. */
async function nodeIngest(dir: string, file: string, questions: Question[], replies: number): Promise<void> {
  const dataset = path.join(dir, 'questions.jsonl');
  writeFileSync(dataset, questions.map((q) => JSON.stringify(q)).join('\n') + '\n');
  const rows = path.join(dir, 'rows.jsonl');
  // The launcher rebuilds its bundle after a source change: done here, outside the figure.
  await semece(['--help']);
  const read = await semece([
    'sample', '--batch', 'read', '--provider', MODEL.preset, '--base-url', MODEL.baseUrl, '--model', MODEL.model, '--dataset', dataset,
    '--samples', String(N), '--temperature', String(SETTINGS.temperature), '--max-tokens', String(SETTINGS.maxTokens), '--top-p', '1',
    '--results', file, '--out', rows,
  ]);
  if (read.code !== 0) throw new Error(`semece sample --batch read exited ${read.code}: ${read.stderr}`);
  console.log(`node: semece sample --batch read: ${replies.toLocaleString('en')} replies stored and the rows written in ${(read.ms / 1000).toFixed(1)} s = ${Math.round(replies / (read.ms / 1000)).toLocaleString('en')} replies/s (process start included); peak resident ${mb(read.peakRss)}`);
  if (process.env.SEMECE_BENCH_SKIP_SCORE) return;
  const clustered = path.join(dir, 'clustered.jsonl');
  const graded = path.join(dir, 'graded.jsonl');
  const steps: [string, string[]][] = [
    ['cluster --method exact', ['cluster', '--method', 'exact', '--in', rows, '--out', clustered]],
    ['grade --method alias', ['grade', '--method', 'alias', '--in', clustered, '--out', graded]],
    ['score', ['score', '--clustered', clustered, '--graded', graded]],
  ];
  for (const [name, args] of steps) {
    const r = await semece(args);
    if (r.code !== 0 && r.code !== 3) throw new Error(`semece ${name} exited ${r.code}: ${r.stderr}`);
    console.log(`node: semece ${name} over ${questions.length.toLocaleString('en')} questions: ${(r.ms / 1000).toFixed(1)} s; peak resident ${mb(r.peakRss)}`);
  }
}

export default async function batchIngestBench(): Promise<void> {
  const replies = Number(process.env.SEMECE_BENCH_REPLIES ?? 2_000_000);
  if (!Number.isInteger(replies) || replies < N || replies % N !== 0) throw new Error(`SEMECE_BENCH_REPLIES must be a multiple of ${N}, got ${process.env.SEMECE_BENCH_REPLIES}`);
  const count = replies / N;
  const questions: Question[] = Array.from({ length: count }, (_, i) => ({ id: `q${i}`, question: `Synthetic question number ${i}: which city is meant?`, answer: 'Paris', aliases: ['Paris, France'] }));
  const spec = { model: MODEL, settings: SETTINGS, n: N, promptTemplate: DEFAULT_GENERATION_PROMPT, questions };
  const made = await SampleRequestSet.create(spec);
  if (!made.ok) throw new Error(made.error.message);

  const dir = path.join(tmpdir(), `semece-batch-bench-${process.pid}`);
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'batch_output.jsonl');
  const tGen = performance.now();
  const bytes = await writeResults(file, made.value);
  console.log(`measured: ${replies.toLocaleString('en')} replies = ${count.toLocaleString('en')} questions × ${N} (OpenAI output format, n=${N} per line); file ${mb(bytes)}, generated in ${((performance.now() - tGen) / 1000).toFixed(1)} s`);

  if (process.env.SEMECE_BENCH_NODE_ONLY) {
    // Only the CLI's half (the browser's takes minutes more).
    try {
      await nodeIngest(dir, file, questions, replies);
    } finally {
      if (process.env.SEMECE_BENCH_KEEP) console.log(`files kept in ${dir}`);
      else rmSync(dir, { recursive: true, force: true });
    }
    return;
  }
  pageFiles();
  if (!process.env.SEMECE_SKIP_BUILD || !existsSync(path.join(ROOT, 'dist/index.html'))) {
    await build({ configFile: false, root: ROOT, base: './', logLevel: 'warn', build: { outDir: 'dist', emptyOutDir: true, target: 'es2022', minify: !process.env.SEMECE_BENCH_PROFILE }, worker: { format: 'es' } });
  }
  const server = await preview({ configFile: false, root: ROOT, build: { outDir: 'dist' }, preview: { host: '127.0.0.1', port: 0, strictPort: false }, logLevel: 'warn' });
  const address = server.httpServer.address();
  if (!address || typeof address === 'string') throw new Error('preview server has no port');
  // A persistent profile, as a user's browser has: an incognito context keeps IndexedDB in memory
  // with a small quota, and the ingest stopped there at about 1.2 million samples.
  const context = await chromium.launchPersistentContext(path.join(dir, 'profile'), { executablePath: provideChromium(), args: CHROMIUM_ARGS, headless: true });
  const root = browserPid();
  let peakRss = 0;
  let peakByKind = new Map<string, number>();
  let peakPss = 0;
  let peakPageHeap = 0;
  try {
    const page = await context.newPage();
    await page.goto(`http://127.0.0.1:${address.port}/`);
    if (root) {
      // What this browser holds before any work: the floor under every peak below.
      await new Promise((r) => setTimeout(r, 1000));
      const idle = treeRssByKind(root);
      console.log(`idle page, before the ingest: all browser processes resident ${mb([...idle].filter(([k]) => k !== PSS).reduce((a, [, b]) => a + b, 0))} (${kinds(idle)}; proportional: ${mb(idle.get(PSS) ?? 0)})`);
    }
    const cdp = await context.newCDPSession(page);
    // Workers' heaps through CDP: attach to each worker target (non-flat sessions) and ask it.
    const peakWorkerHeap: Record<string, number> = {};
    const lastHeap: Record<string, number> = {};
    const sessions = new Map<string, { sessionId: string; name: string }>();
    const replies = new Map<number, (v: { usedSize?: number } | undefined) => void>();
    let msgId = 0;
    cdp.on('Target.receivedMessageFromTarget', (e: { message: string }) => {
      const m = JSON.parse(e.message) as { id?: number; result?: { usedSize?: number } };
      if (m.id !== undefined) replies.get(m.id)?.(m.result);
    });
    const profileTo = process.env.SEMECE_BENCH_PROFILE;
    let profiled: string | undefined;
    const profiles = new Map<number, (p: unknown) => void>();
    cdp.on('Target.receivedMessageFromTarget', (e: { message: string }) => {
      const m = JSON.parse(e.message) as { id?: number; result?: { profile?: unknown } };
      if (m.id !== undefined && m.result?.profile) profiles.get(m.id)?.(m.result.profile);
    });
    const sampleWorkers = async () => {
      const { targetInfos } = (await cdp.send('Target.getTargets')) as { targetInfos: { targetId: string; type: string; url: string }[] };
      for (const t of targetInfos.filter((x) => x.type === 'worker')) {
        let s = sessions.get(t.targetId);
        if (!s) {
          const { sessionId } = (await cdp.send('Target.attachToTarget', { targetId: t.targetId, flatten: false })) as { sessionId: string };
          sessions.set(t.targetId, (s = { sessionId, name: '' }));
        }
        // A new worker target may have no URL yet: name it from the latest listing.
        if (t.url) s.name = /ingest/.test(t.url) ? 'ingest worker' : /run\.worker/.test(t.url) ? 'run worker' : (t.url.split('/').pop() ?? 'worker');
        if (profileTo && s.name === 'run worker' && !profiled) {
          // SEMECE_BENCH_PROFILE=FILE: a CPU profile of the run worker (open it in DevTools), for finding where the first report's time goes.
          profiled = s.sessionId;
          for (const method of ['Profiler.enable', 'Profiler.start']) void cdp.send('Target.sendMessageToTarget', { sessionId: s.sessionId, message: JSON.stringify({ id: ++msgId, method }) });
        }
        const id = ++msgId;
        const heap = await Promise.race([
          new Promise<{ usedSize?: number } | undefined>((resolve) => {
            replies.set(id, resolve);
            void cdp.send('Target.sendMessageToTarget', { sessionId: s!.sessionId, message: JSON.stringify({ id, method: 'Runtime.getHeapUsage' }) }).catch(() => resolve(undefined));
          }),
          new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 2000)),
        ]);
        replies.delete(id);
        const name = s.name || `worker ${t.targetId.slice(0, 6)}`;
        if (heap?.usedSize) peakWorkerHeap[name] = Math.max(peakWorkerHeap[name] ?? 0, heap.usedSize);
        if (heap?.usedSize) lastHeap[name] = heap.usedSize;
      }
    };
    let sampling = false;
    const sampler = setInterval(() => {
      if (root) {
        const byKind = treeRssByKind(root);
        const total = [...byKind].filter(([kind]) => kind !== PSS).reduce((a, [, b]) => a + b, 0);
        if (total > peakRss) [peakRss, peakByKind] = [total, byKind];
        if (process.env.SEMECE_BENCH_TRACE) console.log(`  trace ${(performance.now() / 1000).toFixed(1)} s: ${kinds(byKind)}; pss ${mb(byKind.get(PSS) ?? 0)}; heaps ${JSON.stringify(Object.fromEntries(Object.entries(lastHeap).map(([k, v]) => [k, mb(v)])))}`);
        peakPss = Math.max(peakPss, byKind.get(PSS) ?? 0);
      }
      cdp.send('Runtime.getHeapUsage').then((h) => (peakPageHeap = Math.max(peakPageHeap, h.usedSize)), () => undefined);
      if (!sampling) {
        sampling = true;
        sampleWorkers().catch(() => undefined).finally(() => (sampling = false));
      }
    }, 500);
    const ticker = setInterval(() => {
      page.evaluate(() => (window as unknown as { __progress?: unknown }).__progress).then((p) => console.log(`  … ${JSON.stringify(p)}`), () => undefined);
    }, 15_000);
    try {
      await page.setInputFiles('#results', file);
      const ingest = (await page.evaluate((s) => (window as unknown as { __bench: { ingest(s: unknown): Promise<unknown> } }).__bench.ingest(s), JSON.parse(JSON.stringify(spec)))) as {
        stored: number; lines: number; problems: number; failed: number; ms: number; workerPeakHeap: number | null; longestMainTask: number;
      };
      console.log(`ingest: ${ingest.stored.toLocaleString('en')} replies stored from ${ingest.lines.toLocaleString('en')} lines in ${(ingest.ms / 1000).toFixed(1)} s = ${Math.round(ingest.stored / (ingest.ms / 1000)).toLocaleString('en')} replies/s (${ingest.problems} problem lines, ${ingest.failed} failed); before the by-question layout: ${BEFORE.browserRepliesPerSecond.toLocaleString('en')} replies/s`);
      console.log(`  peak memory during the ingest: all browser processes resident ${root ? `${mb(peakRss)} (${kinds(peakByKind)}; proportional, shared pages once: ${mb(peakPss)})` : 'n/a'}, page JS heap ${mb(peakPageHeap)}`);
      // From here the peaks are the first report's.
      peakRss = 0;
      peakPss = 0;
      peakPageHeap = 0;
      console.log(`  longest main-thread task meanwhile ${ingest.longestMainTask.toFixed(0)} ms (0 = none over 50 ms)${ingest.workerPeakHeap ? `; performance.memory in the worker: ${mb(ingest.workerPeakHeap)}` : ''}`);
      const runSpec = {
        title: 'batch bench', dataset: { name: 'synthetic', source: 'bench', questions },
        models: [MODEL], sampling: { n: N, temperature: SETTINGS.temperature, topP: SETTINGS.topP, maxTokens: SETTINGS.maxTokens, prompt: DEFAULT_GENERATION_PROMPT, concurrency: 8 },
        clustering: { method: 'exact' }, grading: { method: 'alias' },
      };
      const report = (await page.evaluate((s) => (window as unknown as { __bench: { report(s: unknown): Promise<unknown> } }).__bench.report(s), runSpec)) as { ms: number; requests: { done: number; failed: number }; longestMainTask: number; callingTask: number; stages: [string, number][] };
      console.log(`first report (run worker: samples from the cache → exact clustering → alias grading → score): ${(report.ms / 1000).toFixed(1)} s (before the by-question layout: ${BEFORE.firstReportSeconds} s); provider requests ${report.requests.done + report.requests.failed}; longest main-thread task while the workers ran ${report.longestMainTask.toFixed(0)} ms (the bench's own calling task, the driver's argument and the first part of the spec packed for the run worker: ${report.callingTask.toFixed(0)} ms)`);
      console.log(`  stages first seen at: ${report.stages.map(([stage, ms]) => `${stage} ${(ms / 1000).toFixed(1)} s`).join(', ')}`);
      if (profileTo && profiled) {
        const id = ++msgId;
        const profile = await new Promise((resolve) => {
          profiles.set(id, resolve);
          void cdp.send('Target.sendMessageToTarget', { sessionId: profiled!, message: JSON.stringify({ id, method: 'Profiler.stop' }) });
        });
        writeFileSync(profileTo, JSON.stringify(profile));
        console.log(`  run worker CPU profile: ${profileTo}`);
      }
    } finally {
      clearInterval(sampler);
      clearInterval(ticker);
    }
    const workers = Object.entries(peakWorkerHeap).map(([name, b]) => `${name} ${mb(b)}`).join(', ') || 'n/a';
    console.log(`peak memory of the first report: page JS heap ${mb(peakPageHeap)}; all browser processes resident ${root ? `${mb(peakRss)} (${kinds(peakByKind)}; proportional, shared pages once: ${mb(peakPss)})` : 'n/a'} (sampled every 0.5 s); worker JS heaps over both (CDP Runtime.getHeapUsage) ${workers}`);
    // The plain sum counts the pages every Chromium process shares (its code, the zygote's) once
    // per process: an idle page already sums to about 850 MB that way. The proportional figure
    // counts each page once, which is what the machine holds.
    if (root) console.log(`  GOAL first report under 1 GB resident for all browser processes, shared pages counted once: ${mb(peakPss)} ${peakPss < 1024 ** 3 ? 'meets it' : 'MISSES it'}`);
  } finally {
    await context.close();
    await server.close();
  }
  try {
    await nodeIngest(dir, file, questions, replies);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
