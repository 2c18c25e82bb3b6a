/**
 * The WebAssembly binary encoding the core's small kernels are assembled with (pcg64.ts,
 * pcg64-bounded.ts, pairwise-wasm.ts, paired-kernel-wasm.ts). The kernels are written as opcode
 * lists in source, so no build step and no binary file is needed; every one has a plain-JS
 * fallback that gives the same bits.
 */

/** The part of the WebAssembly API the kernels use; typed here because core/ has no DOM types. */
export interface WasmApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports?: object) => { exports: Record<string, unknown> };
  Memory: new (d: { initial: number }) => { buffer: ArrayBuffer };
}

/** The runtime's WebAssembly, or undefined where there is none. */
export function wasmApi(): WasmApi | undefined {
  return (globalThis as { WebAssembly?: WasmApi }).WebAssembly;
}

/** Unsigned LEB128 of a non-negative integer. */
export function uleb(value: number): number[] {
  const bytes: number[] = [];
  do {
    let byte = value & 0x7f;
    value = Math.floor(value / 128);
    if (value !== 0) byte |= 0x80;
    bytes.push(byte);
  } while (value !== 0);
  return bytes;
}

/** Signed LEB128 of a 32-bit integer (i32.const immediates). */
export function sleb(value: number): number[] {
  const bytes: number[] = [];
  for (;;) {
    const byte = value & 0x7f;
    value >>= 7;
    const done = (value === 0 && (byte & 0x40) === 0) || (value === -1 && (byte & 0x40) !== 0);
    bytes.push(done ? byte : byte | 0x80);
    if (done) return bytes;
  }
}

/** Signed LEB128 of a bigint (i64.const immediates). */
export function slebBig(value: bigint): number[] {
  const bytes: number[] = [];
  for (;;) {
    const byte = Number(value & 0x7fn);
    value >>= 7n; // arithmetic shift on bigint
    const done = (value === 0n && (byte & 0x40) === 0) || (value === -1n && (byte & 0x40) !== 0);
    bytes.push(done ? byte : byte | 0x80);
    if (done) return bytes;
  }
}

/** i64.const of an unsigned 64-bit constant (wasm reads it as signed two's complement). */
export const i64c = (v: bigint): number[] => [0x42, ...slebBig(BigInt.asIntN(64, v))];

/** A module section: id, byte length, content. */
export const section = (id: number, content: number[]): number[] => [id, ...uleb(content.length), ...content];

/** A length-prefixed ASCII name (imports, exports). */
export const name = (s: string): number[] => [s.length, ...Array.from(s, (ch) => ch.charCodeAt(0))];
