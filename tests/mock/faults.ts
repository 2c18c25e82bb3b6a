/** Which fault (if any) the mock injects into a request: a scripted sequence first, then chance. */
import { mulberry32 } from './answers.ts';

export type FaultKind =
  | 'rate-limit'
  | 'rate-limit-retry-after'
  | 'server-500'
  | 'server-503'
  | 'overloaded-529'
  | 'slow'
  | 'hang'
  | 'drop'
  | 'malformed'
  | 'fewer'
  | 'auth'
  | 'quota';

export const ALL_RETRYABLE_FAULTS: FaultKind[] = [
  'rate-limit', 'rate-limit-retry-after', 'server-500', 'server-503', 'overloaded-529', 'slow', 'drop', 'malformed', 'fewer',
];

export interface FaultConfig {
  /** Chance that a request gets a fault drawn uniformly from `kinds`. */
  probability?: number;
  kinds?: FaultKind[];
  /** Consumed one per request before chance applies; 'ok' lets a request through. */
  sequence?: (FaultKind | 'ok')[];
  /** Seconds sent in Retry-After by 'rate-limit-retry-after' (default 1). */
  retryAfterSeconds?: number;
  /** Delay of a 'slow' reply (default 2000 ms). */
  slowMs?: number;
  /** How long a 'hang' holds the connection before dropping it (default 60000 ms). */
  hangMs?: number;
  seed?: number;
}

export class FaultPicker {
  private readonly sequence: (FaultKind | 'ok')[];
  private readonly rng: () => number;
  constructor(private readonly cfg: FaultConfig = {}) {
    this.sequence = [...(cfg.sequence ?? [])];
    this.rng = mulberry32(cfg.seed ?? 1);
  }
  next(): FaultKind | undefined {
    if (this.sequence.length > 0) {
      const f = this.sequence.shift();
      return f === 'ok' ? undefined : f;
    }
    const kinds = this.cfg.kinds ?? ALL_RETRYABLE_FAULTS;
    const p = this.cfg.probability ?? 0;
    if (p <= 0 || kinds.length === 0 || this.rng() >= p) return undefined;
    return kinds[Math.floor(this.rng() * kinds.length)];
  }
}
