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

export function toJson(value: unknown, pretty = false): string {
  return JSON.stringify(value, replacer, pretty ? 1 : undefined);
}
