/**
 * The worker thread `semece score` runs its paired bootstrap on (cli/bootstrap-thread-runner.ts):
 * one job in, its result out. It imports the bootstrap alone, not the pipeline, so it is loaded
 * while the main thread is still reading the rows.
 */
import { parentPort } from 'node:worker_threads';
import { pairedBootstrap } from '../src/core/bootstrap.ts';
import type { MetricsBootstrapJob } from '../src/pipeline/model-metrics.ts';

parentPort!.once('message', (job: MetricsBootstrapJob) => {
  const result = pairedBootstrap(job.input, job.options, job.signals);
  parentPort!.postMessage(result, Object.values(result.eceReplicates).map((r) => r.buffer as ArrayBuffer));
});
