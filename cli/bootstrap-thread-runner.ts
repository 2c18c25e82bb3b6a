/**
 * `semece score`'s paired bootstrap on a second thread, so that it runs beside the metrics that
 * do not read its replicates (pipeline/model-metrics.ts, modelMetricsBeside): on a machine with
 * two cores the command finishes about as much sooner as the bootstrap takes (0.5 s of 3.5 s at
 * 40,000 questions). The results are the same bits: one seeded stream, the same arrays.
 *
 * The thread is the built CLI's `bootstrap-thread.js` (cli/launcher.mjs builds it beside the
 * commands), started when the command starts so that it loads while the rows are read. Run from
 * source (tsx, the tests), there is no built thread, and the bootstrap runs on the main thread;
 * so it does where the thread fails to start or stops.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { runBootstrapJob, type BootstrapRunner, type MetricsBootstrapJob } from '../src/pipeline/model-metrics.ts';
import type { BootstrapResult } from '../src/core/bootstrap.ts';

export interface BootstrapThread {
  run: BootstrapRunner;
  /** Stops the thread if its job was never sent (an early exit). */
  close(): void;
}

/** A bootstrap thread started now, or the main thread where there is no built one. */
export function startBootstrapThread(): BootstrapThread {
  const file = new URL('./bootstrap-thread.js', import.meta.url);
  let worker: Worker | undefined;
  try {
    if (existsSync(fileURLToPath(file))) worker = new Worker(file);
  } catch {
    worker = undefined;
  }
  if (!worker) return { run: async (job) => runBootstrapJob(job), close: () => {} };
  const thread = worker;
  // Until a job is sent, the thread must not keep the process alive.
  thread.unref();
  const onThread = (job: MetricsBootstrapJob) =>
    new Promise<BootstrapResult>((resolve, reject) => {
      thread.once('message', (result: BootstrapResult) => resolve(result));
      thread.once('error', reject);
      thread.once('exit', (code) => reject(new Error(`the bootstrap thread stopped (exit code ${code})`)));
      // Now the command waits on it: it keeps the process alive until its result comes.
      thread.ref();
      thread.postMessage(job);
    });
  return {
    run: (job) => onThread(job).catch(() => runBootstrapJob(job)).finally(() => void thread.terminate()),
    close: () => void thread.terminate(),
  };
}
