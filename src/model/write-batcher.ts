/**
 * Coalesces many small writes into one IndexedDB transaction per batch. Callers await the
 * write they queued: the promise settles when the transaction holding it commits, so a caller
 * that has awaited `put` knows its data survives a reload.
 *
 * A batch is written when `maxItems` have queued or `maxDelayMs` after its first item, whichever
 * comes first, and at once on `flush()`. Batches commit one at a time, in order, so an item waits
 * at most for the transaction in progress, then `maxDelayMs`, then its own transaction.
 */
/** Items per transaction before a batch is written without waiting for its timer. */
export const BATCH_MAX_ITEMS = 500;
/**
 * The longest a queued item waits for company. Short, because what waits is lost on a reload;
 * long enough that a burst of replies still shares one transaction.
 */
export const BATCH_MAX_DELAY_MS = 10;

export class BatchWriter<T> {
  private queue: T[] = [];
  private waiters: { resolve: () => void; reject: (e: unknown) => void }[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly write: (items: T[]) => Promise<void>,
    private readonly maxItems = BATCH_MAX_ITEMS,
    private readonly maxDelayMs = BATCH_MAX_DELAY_MS,
  ) {}

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
    const items = this.queue;
    const waiters = this.waiters;
    this.queue = [];
    this.waiters = [];
    // One transaction at a time keeps writes in the order they were queued.
    this.flushing = this.flushing.then(async () => {
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
