/**
 * Field checks for the authors' JSONL rows. Hand-written rather than a schema library because
 * a row carries several arrays of n entries and the messages must say which entry is wrong
 * ("cluster_assignments[17] = 5 is outside 0..3"), and because 40,000 rows × 50 samples must
 * validate in well under a second.
 */

/** A problem with one field; the reader adds the file and line. */
export class FieldError extends Error {}

export type Obj = Record<string, unknown>;

export function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return `the string ${JSON.stringify(value.length > 40 ? value.slice(0, 40) + '…' : value)}`;
  if (typeof value === 'object') return 'an object';
  return `${typeof value} ${String(value)}`;
}

function present(row: Obj, key: string): unknown {
  if (!(key in row)) throw new FieldError(`missing field "${key}"`);
  return row[key];
}

export function str(row: Obj, key: string): string {
  const v = present(row, key);
  if (typeof v !== 'string') throw new FieldError(`"${key}" must be a string, got ${describe(v)}`);
  return v;
}

export function optionalStr(row: Obj, key: string): string | undefined {
  if (!(key in row) || row[key] === undefined) return undefined;
  return str(row, key);
}

/** Ids may be written as strings or integers; both become strings. */
export function id(row: Obj): string {
  const v = present(row, 'id');
  if (typeof v === 'string' && v.length > 0) return v;
  if (typeof v === 'number' && Number.isSafeInteger(v)) return String(v);
  throw new FieldError(`"id" must be a non-empty string or an integer, got ${describe(v)}`);
}

export function int(row: Obj, key: string, min: number): number {
  const v = present(row, key);
  if (typeof v !== 'number' || !Number.isInteger(v)) {
    throw new FieldError(`"${key}" must be an integer, got ${describe(v)}`);
  }
  if (v < min) throw new FieldError(`"${key}" must be at least ${min}, got ${v}`);
  return v;
}

export function arr(row: Obj, key: string, length?: number, lengthName?: string): unknown[] {
  const v = present(row, key);
  if (!Array.isArray(v)) throw new FieldError(`"${key}" must be an array, got ${describe(v)}`);
  if (length !== undefined && v.length !== length) {
    throw new FieldError(`"${key}" has ${v.length} entries but ${lengthName} = ${length}`);
  }
  return v;
}

/** `nullable`: an entry may be null as well as a string. */
export function strings(row: Obj, key: string, length: number, lengthName: string, { nullable = false }: { nullable?: boolean } = {}): (string | null)[] {
  const v = arr(row, key, length, lengthName);
  for (let i = 0; i < v.length; i++) {
    const x = v[i];
    if (typeof x === 'string' || (nullable && x === null)) continue;
    throw new FieldError(`"${key}"[${i}] must be a string${nullable ? ' or null' : ''}, got ${describe(x)}`);
  }
  return v as (string | null)[];
}

/** Integers in [0, K), e.g. class indices. */
export function indices(row: Obj, key: string, length: number, lengthName: string, K: number, kName: string): number[] {
  const v = arr(row, key, length, lengthName);
  for (let i = 0; i < v.length; i++) {
    const x = v[i];
    if (typeof x !== 'number' || !Number.isInteger(x)) {
      throw new FieldError(`"${key}"[${i}] must be an integer, got ${describe(x)}`);
    }
    if (x < 0 || x >= K) throw new FieldError(`"${key}"[${i}] = ${x} is outside 0..${K - 1} (${kName} = ${K})`);
  }
  return v as number[];
}

/** Stated confidences: numbers in [0, 1] or null (no parsable confidence). */
export function confidences(row: Obj, key: string, length: number, lengthName: string): (number | null)[] {
  const v = arr(row, key, length, lengthName);
  for (let i = 0; i < v.length; i++) {
    const x = v[i];
    if (x === null) continue;
    if (typeof x !== 'number' || !Number.isFinite(x)) {
      throw new FieldError(`"${key}"[${i}] must be a number in [0, 1] or null, got ${describe(x)}`);
    }
    if (x < 0 || x > 1) throw new FieldError(`"${key}"[${i}] = ${x} is outside [0, 1]`);
  }
  return v as (number | null)[];
}

/**
 * An adaptively sampled row's selection block (`selection_samples`, model/rows.ts): a whole
 * number from 1 to n − 1, so at least one held-out sample is left for its Sem2.
 */
export function selectionSamples(row: Obj, n: number): number {
  const v = int(row, 'selection_samples', 1);
  if (v >= n) throw new FieldError(`"selection_samples" = ${v} leaves no held-out sample of n_samples = ${n}`);
  return v;
}
