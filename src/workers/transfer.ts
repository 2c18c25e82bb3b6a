/**
 * A Comlink transfer handler for thrown errors, registered on both sides of every worker by
 * worker-connection.ts, so an unexpected throw in a worker reaches the page with its kind,
 * where, status and retryability, not only the name and message Comlink's built-in handler
 * keeps. Expected failures do not throw at all (they are `Result` values); this is the safety
 * net for the rest.
 */
import * as Comlink from 'comlink';
import type { StageError } from '../model/rows';

/** What a worker error becomes on the page. */
export class WorkerError extends Error implements StageError {
  kind: string;
  where?: string;
  status?: number;
  retryable?: boolean;

  constructor(info: StageError & { name?: string }) {
    super(info.message);
    this.name = info.name ?? 'WorkerError';
    this.kind = info.kind;
    this.where = info.where;
    this.status = info.status;
    this.retryable = info.retryable;
  }
}

/** Plain data of any thrown value; keeps the typed fields when the error has them. */
export function errorInfo(value: unknown, where?: string): StageError & { name: string } {
  if (value instanceof Error) {
    const e = value as Error & Partial<StageError> & { status?: number | null };
    return {
      name: e.name,
      kind: typeof e.kind === 'string' ? e.kind : 'internal',
      message: e.message,
      where: e.where ?? where,
      status: typeof e.status === 'number' ? e.status : undefined,
      retryable: typeof e.retryable === 'boolean' ? e.retryable : undefined,
    };
  }
  return { name: 'Error', kind: 'internal', message: String(value), where };
}

interface ThrownValue {
  value: unknown;
}

let registered = false;

export function registerErrorTransfer(): void {
  if (registered) return;
  registered = true;
  // Comlink does not export its thrown-value marker, so keep its own recogniser and replace the rest.
  const builtIn = Comlink.transferHandlers.get('throw');
  if (!builtIn) throw new Error("Comlink has no 'throw' transfer handler to extend");
  Comlink.transferHandlers.set('throw', {
    canHandle: (value: unknown): value is ThrownValue => builtIn.canHandle(value),
    serialize: ({ value }: ThrownValue) => [errorInfo(value), []],
    deserialize: (info: StageError & { name: string }) => {
      throw new WorkerError(info);
    },
  } as Comlink.TransferHandler<ThrownValue, StageError & { name: string }>);
}
