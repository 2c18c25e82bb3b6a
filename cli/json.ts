/**
 * JSON for the CLI: one document, NaN and ±Infinity written as null (JSON has no NaN; a reader
 * takes null as "undefined statistic"), typed arrays written as plain arrays. Numbers keep
 * JavaScript's shortest round-trip form, so a value read back is the same double.
 */
function replacer(_key: string, value: unknown): unknown {
  if (typeof value === 'number' && !Number.isFinite(value)) return null;
  if (ArrayBuffer.isView(value) && !(value instanceof DataView)) return Array.from(value as unknown as ArrayLike<number>);
  return value;
}

/** Whether a typed array sits anywhere in the value (deep or cyclic values count as holding one). */
function holdsTypedArray(value: unknown, depth = 0): boolean {
  if (typeof value !== 'object' || value === null) return false;
  if (ArrayBuffer.isView(value)) return true;
  if (depth > 64) return true;
  if (Array.isArray(value)) {
    for (const v of value) if (typeof v === 'object' && v !== null && holdsTypedArray(v, depth + 1)) return true;
    return false;
  }
  for (const key in value) {
    const v = (value as Record<string, unknown>)[key];
    if (typeof v === 'object' && v !== null && holdsTypedArray(v, depth + 1)) return true;
  }
  return false;
}

export function toJson(value: unknown, { pretty = false }: { pretty?: boolean } = {}): string {
  // JSON.stringify itself writes NaN and ±Infinity as null; a replacer, called for every key,
  // costs more than the rest of the work, so it runs only where a typed array needs it.
  return JSON.stringify(value, holdsTypedArray(value) ? replacer : undefined, pretty ? 1 : undefined);
}
