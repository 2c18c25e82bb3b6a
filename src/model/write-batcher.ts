/**
 * Coalesces many small writes into one write per batch: the one write batcher of the app (the
 * stores' IndexedDB transactions, the sampling loop's cache puts, the cluster and grade stages'
 * cache entries). Callers await the
 * write they queued: the promise settles when the transaction holding it commits, so a caller
 * that has awaited `put` knows its data survives a reload.
 *
 * A batch is written when `maxItems` have queued or `maxDelayMs` after its first item, whichever
 * comes first, and at once on `flush()`. Batches commit one at a time, in order, so an item waits
 * at most for the transaction in progress, then `maxDelayMs`, then its own transaction. A batch
 * takes what is queued when its turn comes, so items queued while a write is in flight share the
 * next one (natural batching: `add` then `flush` writes as soon as the write in flight commits).
 */
/** Items per transaction before a batch is written without waiting for its timer. */
export const BATCH_MAX_ITEMS = 500;
/**
 * The longest a queued item waits for company. Short, because what waits is lost on a reload;
 * long enough that a burst of replies still shares one transaction.
 */
export const BATCH_MAX_DELAY_MS = 10;

export interface WriteBatcherOptions {
  /** Items that make a batch worth writing without waiting for the timer. */
  maxItems?: number;
  /** The longest the first queued item waits for company. */
  maxDelayMs?: number;
}

export class BatchWriter<T> {
  private queue: T[] = [];
  private waiters: { resolve: () => void; reject: (e: unknown) => void }[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;
  private flushing: Promise<void> = Promise.resolve();

  private readonly maxItems: number;
  private readonly maxDelayMs: number;

  constructor(
    private readonly write: (items: T[]) => Promise<void>,
    options: WriteBatcherOptions = {},
  ) {
    this.maxItems = options.maxItems ?? BATCH_MAX_ITEMS;
    this.maxDelayMs = options.maxDelayMs ?? BATCH_MAX_DELAY_MS;
  }

  add(items: T[]): Promise<void> {
    if (items.length === 0) return Promise.resolve();
    this.queue.push(...items);
    const done = new Promise<void>((resolve, reject) => this.waiters.push({ resolve, reject }));
    if (this.queue.length >= this.maxItems) void this.flush();
    else if (this.timer === undefined) this.timer = setTimeout(() => void this.flush(), this.maxDelayMs);
    return done;
  }

  /** Writes everything queued so far; resolves when it is committed. */
  flush(): Promise<void> {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    // One transaction at a time keeps writes in the order they were queued.
    this.flushing = this.flushing.then(async () => {
      const items = this.queue;
      const waiters = this.waiters;
      this.queue = [];
      this.waiters = [];
      if (items.length === 0) return;
      try {
        await this.write(items);
        for (const w of waiters) w.resolve();
      } catch (e) {
        for (const w of waiters) w.reject(e);
      }
    });
    return this.flushing;
  }
}
