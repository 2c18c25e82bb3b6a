/**
 * A Comlink transfer handler for thrown errors, registered on both sides of every worker by
 * worker-connection.ts, so an unexpected throw in a worker reaches the page with its kind,
 * where, status and retryability, not only the name and message Comlink's built-in handler
 * keeps. Expected failures do not throw at all (they are `Result` values); this is the safety
 * net for the rest.
 */
import * as Comlink from 'comlink';
import { AppError, errorInfo, type ErrorInfo } from '../model/app-error';

/** What a worker error becomes on the page: an AppError (its marker holds), named as the worker named it. */
export class WorkerError extends AppError {
  constructor(info: ErrorInfo | (Omit<ErrorInfo, 'name'> & { name?: string })) {
    super({ ...info, name: info.name ?? 'WorkerError' });
  }
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
    deserialize: (info: ErrorInfo) => {
      throw new WorkerError(info);
    },
  } as Comlink.TransferHandler<ThrownValue, ErrorInfo>);
}
