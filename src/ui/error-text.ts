/**
 * The one place the page words a failure for a person: a thrown error, a worker's error (an
 * AppError with its kind), a `Result`'s StageError or any other thrown value, as its message,
 * with where it happened in front when the caller shows that. Messages arrive worded and
 * scrubbed of keys by whoever made them (providers/secret-scrub.ts); a failure with no words of
 * its own is named as such rather than shown as "[object Object]" or "undefined".
 */
import { errorInfo } from '../model/app-error';

export interface ErrorTextOptions {
  /** Put where it happened in front ("questions.csv: …"), when the failure says. */
  where?: boolean;
}

export function errorText(failure: unknown, options: ErrorTextOptions = {}): string {
  const info = errorInfo(failure);
  const message = info.message.trim() || `an unexpected error (${info.name})`;
  return options.where && info.where ? `${info.where}: ${message}` : message;
}
