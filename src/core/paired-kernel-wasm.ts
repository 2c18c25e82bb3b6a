/**
 * The paired bootstrap's hot loop (paired-kernel.ts, `fillBuckets`) in WebAssembly: the same
 * per-row work in the same order, about twice as fast as the engine's JIT (no bounds checks, no
 * deoptimisation, locals in registers). It only moves values around (loads, stores, one f64
 * subtraction per row); every sum stays in JS (`pairwiseSum` over views of the module's memory),
 * so the results are the same bits.
 *
 * One small module is assembled per data set with its layout baked in as constants (bins, code
 * shift, byte offsets); compiling it costs well under a millisecond and its code is far below
 * the 4 KB that browsers allow to compile synchronously on the main thread.
 *
 * Memory (bytes): control block at 0 — counters[S][L] (i64: cursor + 2^32·ones), end[S][L]
 * (i32 in 8-byte slots, so one byte offset indexes both; set-major:
 * sets Sem1, Sem2, Sem1 low-margin, Sem2 low-margin, then one per extra signal) — each extra
 * signal's codes (u32) and value table (f64), then the two value tables (f64), the packed
 * codes (2 × u32 per row, as paired-kernel.ts lays them out), the drawn rows (i32), the
 * differences (f64) and one region of bucket values (f64) shared by the four sets.
 */

import { name, section, sleb, uleb, wasmApi } from './wasm-bytes';

export interface WasmFillLayout {
  N: number;
  bins: number;
  shift: number;
  packed: Uint32Array;
  t1: Float64Array;
  t2: Float64Array;
  /** More signals filled in the same pass (sets 4, 5, …): codes as codeSignal makes them, same bins and shift. */
  extras: { codes: Uint32Array; table: Float64Array }[];
  /** Total bucket capacity (values) over the four sets. */
  capacity: number;
}

/** Views onto the module's memory and the fill function. */
export interface WasmFill {
  rows: Int32Array;
  diffs: Float64Array;
  values: Float64Array;
  /**
   * Per set s and bin b, at [2(s·L + b)]: the bucket's cursor (next free slot in `values`) and,
   * at [2(s·L + b) + 1], its count of Y = 1 — one 64-bit counter in the module (cursor + 2^32·ones)
   * so a row costs one read-modify-write per set (sets 0..3, then one per extra signal).
   */
  counters: Int32Array;
  /** End of each bucket (exclusive), at [2(s·L + b)]. */
  end: Int32Array;
  /** Fills the buckets from rows[0..m-1]; low-margin rows drawn, or −1 if a bucket is full. */
  fill(m: number): number;
  /** The module's memory, and where `values` and `diffs` start in it (bytes). */
  memory: object;
  valuesAt: number;
  diffsAt: number;
}

const align8 = (x: number) => Math.ceil(x / 8) * 8;

// Opcodes used below.
const GET = 0x20, SET = 0x21, TEE = 0x22;
const I32C = 0x41, I32_LOAD = 0x28, I32_STORE = 0x36, F64_LOAD = 0x2b, F64_STORE = 0x39;
const I32_EQ = 0x46, I32_GE_U = 0x4f, I32_ADD = 0x6a, I32_AND = 0x71, I32_SHL = 0x74, I32_SHR_U = 0x76;
const F64_SUB = 0xa1;
const I64_LOAD = 0x29, I64_STORE = 0x37, I64C = 0x42, I64_ADD = 0x7c, I64_SHL = 0x86, I32_WRAP = 0xa7, I64_EXTEND_U = 0xad;
const c32 = (v: number) => [I32C, ...sleb(v)];
const mem = (op: number, align: number, offset: number) => [op, align, ...uleb(offset)];

type Offsets = Record<'counters' | 'end' | 't1' | 't2' | 'packed' | 'rows' | 'picked' | 'diffs' | 'values', number>;

function assemble(L: number, shift: number, at: Offsets, extras: { codes: number; table: number; picked: number }[]): Uint8Array {
  // Locals: 0 m (param); i32 1 j, 2 r, 3 a, 4 w, 5 y, 6 ba, 7 bb, 8 p, 9 q, 10 lo, 11 c;
  // f64 12 va, 13 vb; i64 14 k (a counter), 15 inc (1 + 2^32·y: one more row, y more ones).
  const M = 0, J = 1, R = 2, A = 3, W = 4, Y = 5, BA = 6, BB = 7, P = 8, Q = 9, LO = 10, C = 11, VA = 12, VB = 13;
  const K = 14, INC = 15;
  const lowMask = (1 << shift) - 1;
  const write = (set: number, bin: number, value: number) => {
    const o = 8 * set * L;
    return [
      GET, bin, ...c32(3), I32_SHL, TEE, Q, ...mem(I64_LOAD, 3, at.counters + o), TEE, K, I32_WRAP, TEE, P,
      GET, Q, ...mem(I32_LOAD, 2, at.end + o), I32_EQ, 0x04, 0x40, ...c32(-1), 0x0f, 0x0b, // if full: return −1
      GET, P, ...c32(3), I32_SHL, GET, value, ...mem(F64_STORE, 3, at.values),
      GET, Q, GET, K, GET, INC, I64_ADD, ...mem(I64_STORE, 3, at.counters + o),
    ];
  };
  const body = [
    // Pass 1, gather: each drawn row's codes, in draw order. A short loop body keeps many of
    // these random reads in flight; the long pass 2 then reads only sequentially.
    0x02, 0x40, 0x03, 0x40,
    GET, J, GET, M, I32_GE_U, 0x0d, 1,
    GET, J, ...c32(3), I32_SHL,
    GET, J, ...c32(2), I32_SHL, ...mem(I32_LOAD, 2, at.rows), TEE, R, ...c32(3), I32_SHL, ...mem(I64_LOAD, 3, at.packed),
    ...mem(I64_STORE, 3, at.picked),
    ...extras.flatMap((x) => [
      GET, J, ...c32(2), I32_SHL, GET, R, ...c32(2), I32_SHL, ...mem(I32_LOAD, 2, x.codes), ...mem(I32_STORE, 2, x.picked),
    ]),
    GET, J, ...c32(1), I32_ADD, SET, J,
    0x0c, 0, 0x0b, 0x0b,
    ...c32(0), SET, J,
    // Pass 2: the buckets.
    0x02, 0x40, 0x03, 0x40,
    GET, J, GET, M, I32_GE_U, 0x0d, 1,
    GET, J, ...c32(3), I32_SHL, TEE, R,
    ...mem(I32_LOAD, 2, at.picked), SET, A,
    GET, R, ...mem(I32_LOAD, 2, at.picked + 4), SET, W,
    GET, A, ...c32(1), I32_AND, TEE, Y, I64_EXTEND_U, I64C, 32, I64_SHL, I64C, 1, I64_ADD, SET, INC,
    GET, A, ...c32(lowMask), I32_AND, ...c32(1), I32_SHR_U, SET, BA,
    GET, W, ...c32(lowMask), I32_AND, ...c32(1), I32_SHR_U, SET, BB,
    GET, A, ...c32(shift), I32_SHR_U, ...c32(3), I32_SHL, ...mem(F64_LOAD, 3, at.t1), SET, VA,
    GET, W, ...c32(shift), I32_SHR_U, ...c32(3), I32_SHL, ...mem(F64_LOAD, 3, at.t2), SET, VB,
    GET, J, ...c32(3), I32_SHL, GET, VA, GET, VB, F64_SUB, ...mem(F64_STORE, 3, at.diffs),
    ...write(0, BA, VA),
    ...write(1, BB, VB),
    GET, W, ...c32(1), I32_AND, 0x04, 0x40,
    ...write(2, BA, VA),
    ...write(3, BB, VB),
    GET, LO, ...c32(1), I32_ADD, SET, LO,
    0x0b,
    // Each extra signal: its code of row r (r·4 = R/2 bytes), bin and value, into set 4 + k.
    ...extras.flatMap((x, k) => [
      GET, R, ...c32(1), I32_SHR_U, ...mem(I32_LOAD, 2, x.picked), SET, C,
      GET, C, ...c32(shift), I32_SHR_U, ...c32(3), I32_SHL, ...mem(F64_LOAD, 3, x.table), SET, VA,
      GET, C, ...c32(lowMask), I32_AND, ...c32(1), I32_SHR_U, SET, BA,
      ...write(4 + k, BA, VA),
    ]),
    GET, J, ...c32(1), I32_ADD, SET, J,
    0x0c, 0, 0x0b, 0x0b,
    GET, LO, 0x0b,
  ];
  const locals = [3, 11, 0x7f, 2, 0x7c, 2, 0x7e]; // eleven i32, two f64, two i64
  const func = [...uleb(locals.length + body.length), ...locals, ...body];
  return new Uint8Array([
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
    ...section(1, [1, 0x60, 1, 0x7f, 1, 0x7f]), // (i32) -> i32
    ...section(2, [1, ...name('e'), ...name('m'), 0x02, 0x00, 0x01]), // import memory e.m, min 1 page
    ...section(3, [1, 0]),
    ...section(7, [1, ...name('f'), 0, 0]),
    ...section(10, [1, ...func]),
  ]);
}

/** The WebAssembly fill for this layout, or null where WebAssembly is unavailable or refused. */
export function wasmFill(layout: WasmFillLayout): WasmFill | null {
  const api = wasmApi();
  if (!api) return null;
  const { N, bins: L, shift, packed, t1, t2, capacity, extras } = layout;
  const n = Math.max(1, N);
  const S = 4 + extras.length;
  const at = { counters: 0, end: 8 * S * L, t1: 0, t2: 0, packed: 0, rows: 0, picked: 0, diffs: 0, values: 0 };
  let top = align8(16 * S * L);
  const extraAt = extras.map((x) => {
    const codes = top;
    top = align8(top + 4 * x.codes.length);
    const picked = top;
    top = align8(top + 4 * n);
    const table = top;
    top = align8(top + 8 * x.table.length);
    return { codes, table, picked };
  });
  at.t1 = top; top = align8(top + 8 * t1.length);
  at.t2 = top; top = align8(top + 8 * t2.length);
  at.packed = top; top = align8(top + 4 * packed.length);
  at.rows = top; top = align8(top + 4 * n);
  at.picked = top; top = align8(top + 8 * n);
  at.diffs = top; top = align8(top + 8 * n);
  at.values = top; top = align8(top + 8 * Math.max(1, capacity));
  if (top > 2 ** 31) return null;
  try {
    const memory = new api.Memory({ initial: Math.ceil(top / 65536) });
    const instance = new api.Instance(new api.Module(assemble(L, shift, at, extraAt)), { e: { m: memory } });
    const f = instance.exports.f as (m: number) => number;
    const buf = memory.buffer;
    new Float64Array(buf, at.t1, t1.length).set(t1);
    new Float64Array(buf, at.t2, t2.length).set(t2);
    new Uint32Array(buf, at.packed, packed.length).set(packed);
    extras.forEach((x, k) => {
      new Uint32Array(buf, extraAt[k].codes, x.codes.length).set(x.codes);
      new Float64Array(buf, extraAt[k].table, x.table.length).set(x.table);
    });
    return {
      rows: new Int32Array(buf, at.rows, n),
      diffs: new Float64Array(buf, at.diffs, n),
      values: new Float64Array(buf, at.values, Math.max(1, capacity)),
      counters: new Int32Array(buf, at.counters, 2 * S * L),
      end: new Int32Array(buf, at.end, 2 * S * L),
      fill: f,
      memory,
      valuesAt: at.values,
      diffsAt: at.diffs,
    };
  } catch {
    // A content security policy may forbid compiling WebAssembly: the JS loop gives the same bits.
    return null;
  }
}
