/**
 * The one error shape: a `kind` code can branch on ('auth', 'storage-superseded', 'internal' …),
 * a `message` a person can read, where it happened, and a `detail` (the cause's own text) for a
 * report of a bug. Thrown as an `AppError`, carried as plain data (`ErrorInfo`, a `StageError`
 * with its name and detail) across workers, into stored runs and onto the CLI's output, so an
 * error keeps its kind at every boundary instead of being flattened to its message.
 *
 * The messages are not scrubbed here (model/ knows no keys): whoever shows, logs or stores one
 * sends it through providers/secret-scrub.ts, as before.
 */
import type { StageError } from './rows';

/** A registered symbol, so the mark survives two copies of this module in one realm (a bundle and a chunk). */
const MARK = Symbol.for('semece.app-error');

/** An error as plain data: what crosses a worker boundary or is stored. */
export interface ErrorInfo extends StageError {
  name: string;
  /** The cause's own text, when the message words it for a person. */
  detail?: string;
}

/** The kind of an error that carries none of its own. */
export const INTERNAL = 'internal';

export class AppError extends Error implements StageError {
  readonly [MARK] = true;
  kind: string;
  where?: string;
  status?: number;
  retryable?: boolean;
  detail?: string;

  constructor(info: StageError & { name?: string; detail?: string }, options?: { cause?: unknown }) {
    super(info.message, options);
    this.name = info.name ?? 'AppError';
    this.kind = info.kind;
    this.where = info.where;
    this.status = info.status;
    this.retryable = info.retryable;
    this.detail = info.detail;
  }
}

/** The marker check: an AppError (or one rebuilt from a worker's ErrorInfo), whichever copy of the class made it. */
export function isAppError(value: unknown): value is AppError {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[MARK] === true;
}

const isStageError = (value: unknown): value is StageError =>
  typeof value === 'object' && value !== null && typeof (value as StageError).message === 'string' && typeof (value as StageError).kind === 'string';

/** The message of any thrown or returned failure: an Error's, a StageError's, or the value as text. */
export function errorMessage(value: unknown): string {
  if (value instanceof Error || isStageError(value)) return value.message;
  return String(value);
}

function causeText(e: Error): string | undefined {
  const cause = (e as { cause?: unknown }).cause;
  if (cause === undefined || cause === null) return undefined;
  const text = errorMessage(cause);
  return text && text !== e.message ? text : undefined;
}

/** Plain data of any thrown value; keeps the typed fields when the error has them. */
export function errorInfo(value: unknown, where?: string): ErrorInfo {
  if (value instanceof Error) {
    const e = value as Error & Partial<StageError> & { status?: number | null; detail?: unknown };
    const detail = typeof e.detail === 'string' ? e.detail : causeText(e);
    return {
      name: e.name,
      kind: typeof e.kind === 'string' ? e.kind : INTERNAL,
      message: e.message,
      where: e.where ?? where,
      status: typeof e.status === 'number' ? e.status : undefined,
      retryable: typeof e.retryable === 'boolean' ? e.retryable : undefined,
      ...(detail !== undefined ? { detail } : {}),
    };
  }
  if (isStageError(value)) return { name: 'Error', ...value, where: value.where ?? where };
  return { name: 'Error', kind: INTERNAL, message: String(value), where };
}
