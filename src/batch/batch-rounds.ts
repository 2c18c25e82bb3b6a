/**
 * What every kind of provider batch run (the samples, p(True)'s rounds) is given beside its own
 * request set: the service, the cache results go to, how to poll and split, and how batches
 * submitted earlier are collected instead of paid for again (pending-batches.ts keeps their ids).
 */
import type { SampleCache } from '../model/sample-cache.ts';
import type { BatchService } from './service.ts';
import type { PollOptions } from './poll.ts';

export interface BatchRoundOptions {
  service: BatchService;
  cache: SampleCache;
  poll?: Omit<PollOptions, 'signal' | 'onStatus'>;
  /** Batch rounds at most (each kind says its default and what a round re-requests). */
  maxRounds?: number;
  limits?: { maxRequests: number; maxBytes: number };
  /** Batches submitted earlier and not yet collected. */
  pendingIds?: string[];
  /** Called when a batch is submitted, before any wait (persist its id: pending-batches.ts), and when it has been collected. */
  onSubmitted?: (id: string, requests: number) => void | Promise<void>;
  onCollected?: (id: string) => void | Promise<void>;
  /** Only the pending batches are collected: nothing is submitted (resuming a wait a closed tab left). */
  collectOnly?: boolean;
  signal?: AbortSignal;
}
