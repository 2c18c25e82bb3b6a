/**
 * The one error shape: an error keeps its kind, where, status and detail as plain data, the
 * marker check knows one however it was made (thrown here, or rebuilt from a worker's data), and
 * the message of any failure is read one way.
 */
import { describe, expect, test } from 'vitest';
import { AppError, errorInfo, errorMessage, INTERNAL, isAppError } from '../../../src/model/app-error';
import { WorkerError } from '../../../src/workers/transfer';

describe('isAppError', () => {
  test('marks AppErrors and the worker errors rebuilt from their data, nothing else', () => {
    const e = new AppError({ kind: 'storage-superseded', message: 'reload this tab', where: 'database' });
    expect(isAppError(e)).toBe(true);
    expect(e).toBeInstanceOf(Error);
    expect(isAppError(new WorkerError(errorInfo(e)))).toBe(true);
    expect(isAppError(new Error('plain'))).toBe(false);
    expect(isAppError({ kind: 'auth', message: 'no' })).toBe(false);
    expect(isAppError(null)).toBe(false);
    expect(isAppError('AppError')).toBe(false);
  });
});

describe('errorInfo', () => {
  test('keeps the kind, where, status, retryability and detail of an AppError', () => {
    const e = new AppError({ kind: 'rate-limit', message: 'too many requests', where: 'gpt-4o', status: 429, retryable: true, detail: 'retry-after 2' });
    expect(errorInfo(e, 'elsewhere')).toEqual({ name: 'AppError', kind: 'rate-limit', message: 'too many requests', where: 'gpt-4o', status: 429, retryable: true, detail: 'retry-after 2' });
  });

  test('a plain Error is internal, placed where the caller says, its cause kept as the detail', () => {
    const info = errorInfo(new TypeError('x is undefined', { cause: new Error('disk full') }), 'stage score');
    expect(info).toEqual({ name: 'TypeError', kind: INTERNAL, message: 'x is undefined', where: 'stage score', status: undefined, retryable: undefined, detail: 'disk full' });
  });

  test('a thrown string or a StageError value keeps its text and kind', () => {
    expect(errorInfo('boom')).toEqual({ name: 'Error', kind: INTERNAL, message: 'boom', where: undefined });
    expect(errorInfo({ kind: 'auth', message: 'bad key' }, 'here')).toEqual({ name: 'Error', kind: 'auth', message: 'bad key', where: 'here' });
  });

  test('survives structured cloning (the worker boundary) and comes back an AppError', () => {
    const back = new WorkerError(structuredClone(errorInfo(new AppError({ kind: 'quota', message: 'storage full', detail: 'QuotaExceededError' }))));
    expect(back).toMatchObject({ name: 'AppError', kind: 'quota', message: 'storage full', detail: 'QuotaExceededError' });
    expect(isAppError(back)).toBe(true);
  });
});

describe('errorMessage', () => {
  test("an Error's message, a StageError's message, anything else as text", () => {
    expect(errorMessage(new RangeError('out of range'))).toBe('out of range');
    expect(errorMessage(new DOMException('cancelled', 'AbortError'))).toBe('cancelled');
    expect(errorMessage({ kind: 'auth', message: 'bad key' })).toBe('bad key');
    expect(errorMessage('plain words')).toBe('plain words');
    expect(errorMessage(42)).toBe('42');
    expect(errorMessage(undefined)).toBe('undefined');
  });
});
