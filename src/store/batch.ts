/**
 * Coalesces many small writes into one IndexedDB transaction per batch. Callers await the
 * write they queued: the promise settles when the transaction holding it commits, so a caller
 * that has awaited `put` knows its data survives a reload.
 */
export class BatchWriter<T> {
  private queue: T[] = [];
  private waiters: { resolve: () => void; reject: (e: unknown) => void }[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly write: (items: T[]) => Promise<void>,
    private readonly maxItems = 500,
    private readonly maxDelayMs = 30,
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
