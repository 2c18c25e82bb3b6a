/**
 * numpy's pairwise summation (pairwise.ts) in WebAssembly with 128-bit SIMD, over doubles that
 * live in a WebAssembly memory (the bootstrap's buckets). The eight running sums r0..r7 of a
 * block are four f64x2 lanes pairs — (r0,r1), (r2,r3), (r4,r5), (r6,r7) — and a lane-wise f64
 * addition is the same IEEE operation as the scalar one, so every partial sum, the combination
 * ((r0+r1)+(r2+r3))+((r4+r5)+(r6+r7)), the leftovers and the recursion split are those of
 * pairwise.ts, bit for bit (tests compare the two on random arrays).
 *
 *   s(start, n): n < 8 → 0 + x0 + … in order; n ≤ 128 → the blocked sum above;
 *                else n2 = ⌊n/2⌋ − ⌊n/2⌋ mod 8, s(start, n2) + s(start + 8·n2, n − n2).
 * `start` is a byte offset. Returns null where WebAssembly or its SIMD is unavailable.
 */

import { name, section, uleb, wasmApi } from './wasm-bytes';

/** Sum of the n doubles at byte offset `start` of the memory given to `pairwiseSumWasm`. */
export type WasmPairwiseSum = (start: number, n: number) => number;

const GET = 0x20, SET = 0x21, TEE = 0x22, I32C = 0x41;
const I32_GE_U = 0x4f, I32_LT_U = 0x49, I32_LE_U = 0x4d, I32_ADD = 0x6a, I32_SUB = 0x6b, I32_REM_U = 0x70;
const I32_SHL = 0x74, I32_SHR_U = 0x76, F64_LOAD = 0x2b, F64_ADD = 0xa0;
const V128_LOAD = [0xfd, 0x00], F64X2_ADD = [0xfd, 0xf0, 0x01];
const lane = (k: number) => [0xfd, 0x21, k]; // f64x2.extract_lane

function assemble(): Uint8Array {
  // Params 0 start, 1 n; locals 2 i, 3 end, 4 n2, 5 a (i32), 6 sum (f64), 7..10 v0..v3 (v128).
  const START = 0, N = 1, I = 2, END = 3, N2 = 4, A = 5, SUM = 6, V = [7, 8, 9, 10];
  const c = (v: number) => [I32C, v];
  const addr = [GET, START, GET, I, ...c(3), I32_SHL, I32_ADD]; // start + 8i
  const tail = [ // while i < n: sum += x[i]
    0x02, 0x40, 0x03, 0x40, GET, I, GET, N, I32_GE_U, 0x0d, 1,
    GET, SUM, ...addr, F64_LOAD, 3, 0, F64_ADD, SET, SUM,
    GET, I, ...c(1), I32_ADD, SET, I, 0x0c, 0, 0x0b, 0x0b,
  ];
  const laneSum = (v: number) => [GET, v, ...lane(0), GET, v, ...lane(1), F64_ADD];
  const body = [
    GET, N, ...c(8), I32_LT_U, 0x04, 0x40,
    0x44, 0, 0, 0, 0, 0, 0, 0, 0, SET, SUM, ...tail, GET, SUM, 0x0f,
    0x0b,
    GET, N, I32C, 0x80, 0x01, I32_LE_U, 0x04, 0x40, // n ≤ 128
    ...[0, 1, 2, 3].flatMap((k) => [GET, START, ...V128_LOAD, 3, 16 * k, SET, V[k]]),
    GET, N, GET, N, ...c(8), I32_REM_U, I32_SUB, SET, END,
    ...c(8), SET, I,
    0x02, 0x40, 0x03, 0x40, GET, I, GET, END, I32_GE_U, 0x0d, 1,
    ...addr, SET, A,
    ...[0, 1, 2, 3].flatMap((k) => [GET, V[k], GET, A, ...V128_LOAD, 3, 16 * k, ...F64X2_ADD, SET, V[k]]),
    GET, I, ...c(8), I32_ADD, SET, I, 0x0c, 0, 0x0b, 0x0b,
    ...laneSum(V[0]), ...laneSum(V[1]), F64_ADD, ...laneSum(V[2]), ...laneSum(V[3]), F64_ADD, F64_ADD, SET, SUM,
    ...tail, GET, SUM, 0x0f,
    0x0b,
    GET, N, ...c(1), I32_SHR_U, TEE, N2, GET, N2, ...c(8), I32_REM_U, I32_SUB, SET, N2,
    GET, START, GET, N2, 0x10, 0,
    GET, START, GET, N2, ...c(3), I32_SHL, I32_ADD, GET, N, GET, N2, I32_SUB, 0x10, 0,
    F64_ADD,
    0x0b,
  ];
  const locals = [3, 4, 0x7f, 1, 0x7c, 4, 0x7b];
  const func = [...uleb(locals.length + body.length), ...locals, ...body];
  return new Uint8Array([
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
    ...section(1, [1, 0x60, 2, 0x7f, 0x7f, 1, 0x7c]), // (i32, i32) -> f64
    ...section(2, [1, ...name('e'), ...name('m'), 0x02, 0x00, 0x01]),
    ...section(3, [1, 0]),
    ...section(7, [1, ...name('s'), 0, 0]),
    ...section(10, [1, ...func]),
  ]);
}

let compiled: object | null | undefined;

/** The SIMD pairwise sum over `memory` (a WebAssembly.Memory), or null where unavailable. */
export function pairwiseSumWasm(memory: object): WasmPairwiseSum | null {
  const api = wasmApi();
  if (!api) return null;
  try {
    if (compiled === undefined) compiled = new api.Module(assemble());
    if (compiled === null) return null;
    return new api.Instance(compiled, { e: { m: memory } }).exports.s as WasmPairwiseSum;
  } catch {
    compiled = null; // no SIMD here (or WebAssembly refused): JS sums give the same bits
    return null;
  }
}
