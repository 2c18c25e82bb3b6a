/**
 * Waiting for a batch: status polls spaced out with backoff (a batch may take hours; polling every
 * second for a day would be 86,400 needless requests), each status passed on for the progress view.
 */
import { abortableSleep } from '../providers/http.ts';
import type { BatchService, BatchStatus } from './service.ts';

export interface PollOptions {
  /** First wait between polls (default 5 s). */
  intervalMs?: number;
  /** Longest wait between polls (default 5 min). */
  maxIntervalMs?: number;
  /** Growth of the wait per poll (default 1.5). */
  factor?: number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  signal?: AbortSignal;
  onStatus?: (s: BatchStatus) => void;
}

export async function pollUntilEnded(service: BatchService, first: BatchStatus, opts: PollOptions = {}): Promise<BatchStatus> {
  const sleep = opts.sleep ?? abortableSleep;
  let wait = opts.intervalMs ?? 5000;
  let status = first;
  opts.onStatus?.(status);
  while (!status.ended) {
    await sleep(wait, opts.signal);
    status = await service.status(status.id, opts.signal);
    opts.onStatus?.(status);
    wait = Math.min(opts.maxIntervalMs ?? 300_000, wait * (opts.factor ?? 1.5));
  }
  return status;
}
