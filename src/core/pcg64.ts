/**
 * PCG64 (XSL-RR 128/64, numpy's default bit generator) in bulk: advance the 128-bit state
 * `count` times and write each 64-bit output.
 *
 * State layout, shared by both kernels: a Uint32Array of 8 words, words 0..3 the state and
 * 4..7 the increment, each 128-bit value as little-endian uint32 words. Outputs are written as
 * pairs (low word, high word).
 *
 * Two kernels compute the same numbers: a tiny WebAssembly one (native 64-bit multiplies,
 * about ten times faster; the bootstrap draws 40 million numbers) and a plain-number fallback
 * for environments without WebAssembly. Tests compare them draw for draw.
 */

import { makePairedStepBounded, type Lemire32Kernel } from './pcg64-bounded';

export type { Lemire32Kernel };
import { i64c, name, section, uleb, wasmApi } from './wasm-bytes';

const MULT = 0x2360ed051fc65da44385df649fccf645n;
const MASK128 = (1n << 128n) - 1n;

export type Pcg64Kernel = (words: Uint32Array, out: Uint32Array, count: number) => void;

// Multiplier as 16-bit limbs, least significant first.
const M0 = 0xf645, M1 = 0x9fcc, M2 = 0xdf64, M3 = 0x4385;
const M4 = 0x5da4, M5 = 0x1fc6, M6 = 0xed05, M7 = 0x2360;
const R16 = 1 / 65536;

/**
 * Fallback kernel: 16-bit limbs in doubles. Each limb product is below 2^32 and a column of
 * eight plus the carry below 2^36, so every operation is exact.
 */
export const pcg64FillJs: Pcg64Kernel = (words, out, count) => {
  let s0 = words[0] & 0xffff, s1 = words[0] >>> 16, s2 = words[1] & 0xffff, s3 = words[1] >>> 16;
  let s4 = words[2] & 0xffff, s5 = words[2] >>> 16, s6 = words[3] & 0xffff, s7 = words[3] >>> 16;
  const i0 = words[4] & 0xffff, i1 = words[4] >>> 16, i2 = words[5] & 0xffff, i3 = words[5] >>> 16;
  const i4 = words[6] & 0xffff, i5 = words[6] >>> 16, i6 = words[7] & 0xffff, i7 = words[7] >>> 16;
  for (let k = 0; k < count; k++) {
    let c = s0 * M0 + i0;
    let h = Math.floor(c * R16); const n0 = c - h * 65536;
    c = h + s0 * M1 + s1 * M0 + i1;
    h = Math.floor(c * R16); const n1 = c - h * 65536;
    c = h + s0 * M2 + s1 * M1 + s2 * M0 + i2;
    h = Math.floor(c * R16); const n2 = c - h * 65536;
    c = h + s0 * M3 + s1 * M2 + s2 * M1 + s3 * M0 + i3;
    h = Math.floor(c * R16); const n3 = c - h * 65536;
    c = h + s0 * M4 + s1 * M3 + s2 * M2 + s3 * M1 + s4 * M0 + i4;
    h = Math.floor(c * R16); const n4 = c - h * 65536;
    c = h + s0 * M5 + s1 * M4 + s2 * M3 + s3 * M2 + s4 * M1 + s5 * M0 + i5;
    h = Math.floor(c * R16); const n5 = c - h * 65536;
    c = h + s0 * M6 + s1 * M5 + s2 * M4 + s3 * M3 + s4 * M2 + s5 * M1 + s6 * M0 + i6;
    h = Math.floor(c * R16); const n6 = c - h * 65536;
    c = h + s0 * M7 + s1 * M6 + s2 * M5 + s3 * M4 + s4 * M3 + s5 * M2 + s6 * M1 + s7 * M0 + i7;
    h = Math.floor(c * R16); const n7 = c - h * 65536; // bits above 2^128 are dropped
    s0 = n0; s1 = n1; s2 = n2; s3 = n3; s4 = n4; s5 = n5; s6 = n6; s7 = n7;
    // XSL-RR: rotr64(hi64 ^ lo64, state >> 122).
    let xLo = ((s0 ^ s4) | ((s1 ^ s5) << 16)) >>> 0;
    let xHi = ((s2 ^ s6) | ((s3 ^ s7) << 16)) >>> 0;
    let rot = s7 >>> 10;
    if (rot >= 32) {
      const t = xLo; xLo = xHi; xHi = t;
      rot -= 32;
    }
    if (rot !== 0) {
      const lo = ((xLo >>> rot) | (xHi << (32 - rot))) >>> 0;
      xHi = ((xHi >>> rot) | (xLo << (32 - rot))) >>> 0;
      xLo = lo;
    }
    out[2 * k] = xLo;
    out[2 * k + 1] = xHi;
  }
  words[0] = s0 | (s1 << 16); words[1] = s2 | (s3 << 16);
  words[2] = s4 | (s5 << 16); words[3] = s6 | (s7 << 16);
};

/** One PCG64 step on a BigInt state (seeding and debugging only). */
export function pcg64StepBig(state: bigint, inc: bigint): bigint {
  return (state * MULT + inc) & MASK128;
}

export function wordsToBig(words: Uint32Array, from: number): bigint {
  let v = 0n;
  for (let k = from + 3; k >= from; k--) v = (v << 32n) | BigInt(words[k]);
  return v;
}

export function bigToWords(value: bigint, words: Uint32Array, from: number): void {
  for (let k = 0; k < 4; k++) words[from + k] = Number((value >> BigInt(32 * k)) & 0xffffffffn);
}

// ---- WebAssembly kernel -------------------------------------------------------------------
// The module, in text form:
//   (memory (export "m") 1)
//   (func (export "f") (param $n i32) (local $k i32)
//     (local $lo i64) (local $hi i64) (local $il i64) (local $ih i64)
//     (local $a0 i64) (local $a1 i64) (local $p01 i64) (local $p10 i64) (local $mid i64)
//     lo, hi, il, ih ← memory[0], [8], [16], [24]
//     loop while k < n:
//       a0 = lo & 0xffffffff; a1 = lo >> 32                        ;; lo·Ml as 128 bits:
//       p01 = a0·B1; p10 = a1·B0                                   ;; B1:B0 = Ml's 32-bit halves
//       mid = (a0·B0 >> 32) + (p01 & 0xffffffff) + (p10 & 0xffffffff)
//       hi = a1·B1 + (p01 >> 32) + (p10 >> 32) + (mid >> 32) + hi·Ml + lo·Mh
//       lo = lo·Ml + il
//       hi = hi + ih + (lo <u il)                                  ;; carry of the increment
//       memory[32 + 8k] = rotr(hi ^ lo, hi >> 58)
//     memory[0], [8] ← lo, hi)
// It is assembled below from opcodes rather than shipped as an opaque blob.

const ML = 0x4385df649fccf645n;
const MH = 0x2360ed051fc65da4n;
const B0 = ML & 0xffffffffn;
const B1 = ML >> 32n;


const MUL = 0x7e, ADD = 0x7c, AND = 0x83, XOR = 0x85, SHR_U = 0x88, ROTR = 0x8a;
const get = (l: number) => [0x20, l];
const set = (l: number) => [0x21, l];
const load64 = (offset: number) => [0x41, 0, 0x29, 3, offset]; // i32.const 0; i64.load align=8
const M32 = i64c(0xffffffffn), S32 = i64c(32n);

/** Locals of the PCG step, shared by both functions. */
interface StepLocals { LO: number; HI: number; IL: number; IH: number; A0: number; A1: number; P01: number; P10: number; MID: number }

/** One PCG64 step on the locals (state LO/HI, increment IL/IH), then the XSL-RR output on the stack. */
function stepAndOutput(l: StepLocals): number[] {
  const { LO, HI, IL, IH, A0, A1, P01, P10, MID } = l;
  return [
    ...get(LO), ...M32, AND, ...set(A0),
    ...get(LO), ...S32, SHR_U, ...set(A1),
    ...get(A0), ...i64c(B1), MUL, ...set(P01),
    ...get(A1), ...i64c(B0), MUL, ...set(P10),
    ...get(A0), ...i64c(B0), MUL, ...S32, SHR_U,
    ...get(P01), ...M32, AND, ADD, ...get(P10), ...M32, AND, ADD, ...set(MID),
    ...get(A1), ...i64c(B1), MUL,
    ...get(P01), ...S32, SHR_U, ADD, ...get(P10), ...S32, SHR_U, ADD, ...get(MID), ...S32, SHR_U, ADD,
    ...get(HI), ...i64c(ML), MUL, ADD, ...get(LO), ...i64c(MH), MUL, ADD, ...set(HI),
    ...get(LO), ...i64c(ML), MUL, ...get(IL), ADD, ...set(LO),
    ...get(HI), ...get(IH), ADD, ...get(LO), ...get(IL), 0x54, 0xad, ADD, ...set(HI), // lt_u, extend_i32_u
    ...get(HI), ...get(LO), XOR, ...get(HI), ...i64c(58n), SHR_U, ROTR,
  ];
}

/** f(n): n outputs as uint64 at byte 32 + 8k. */
function fillBody(): number[] {
  const N = 0, K = 1;
  const l = { LO: 2, HI: 3, IL: 4, IH: 5, A0: 6, A1: 7, P01: 8, P10: 9, MID: 10 };
  const body = [
    ...load64(0), ...set(l.LO), ...load64(8), ...set(l.HI), ...load64(16), ...set(l.IL), ...load64(24), ...set(l.IH),
    0x02, 0x40, 0x03, 0x40, // block, loop
    ...get(K), ...get(N), 0x4f, 0x0d, 1, // br_if (k >=u n) out of the block
    ...get(K), 0x41, 3, 0x74, // address = k << 3
    ...stepAndOutput(l),
    0x37, 3, 32, // i64.store align=8 offset=32
    ...get(K), 0x41, 1, 0x6a, ...set(K),
    0x0c, 0, 0x0b, 0x0b, // br loop; end loop; end block
    0x41, 0, ...get(l.LO), 0x37, 3, 0, 0x41, 0, ...get(l.HI), 0x37, 3, 8,
    0x0b,
  ];
  const locals = [2, 1, 0x7f, 9, 0x7e]; // one i32 ($k), nine i64
  return [...uleb(locals.length + body.length), ...locals, ...body];
}

function assemble(): Uint8Array {
  return new Uint8Array([
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
    ...section(1, [1, 0x60, 1, 0x7f, 0]), // (i32) -> ()
    ...section(3, [1, 0]),
    ...section(5, [1, 0, 1]), // one page
    ...section(7, [2, ...name('f'), 0, 0, ...name('m'), 2, 0]),
    ...section(10, [1, ...fillBody()]),
  ]);
}

/** Most outputs one WebAssembly call may write: one 64 KiB page minus the 32-byte header. */
export const WASM_MAX_COUNT = (65536 - 32) / 8;
function makeWasmKernel(): Pcg64Kernel | null {
  const api = wasmApi();
  if (!api) return null;
  try {
    const { exports } = new api.Instance(new api.Module(assemble()));
    const f = exports.f as (n: number) => void;
    const memory = exports.m as { buffer: ArrayBuffer };
    return (words, out, count) => {
      const mem = new Uint32Array(memory.buffer);
      for (let done = 0; done < count; ) {
        const chunk = Math.min(count - done, WASM_MAX_COUNT);
        mem.set(words, 0);
        f(chunk);
        words.set(mem.subarray(0, 4), 0);
        out.set(mem.subarray(8, 8 + 2 * chunk), 2 * done);
        done += chunk;
      }
    };
  } catch {
    // A content security policy may forbid compiling WebAssembly; the fallback gives the same numbers.
    return null;
  }
}

/** The WebAssembly kernel, or null where WebAssembly is unavailable. */
export const pcg64FillWasm: Pcg64Kernel | null = makeWasmKernel();

/**
 * Bulk bounded integers in WebAssembly, two PCG steps at a time (pcg64-bounded.ts), or null
 * where WebAssembly is unavailable (rng.ts then loops in JS).
 */
export const lemire32Wasm: Lemire32Kernel | null = makePairedStepBounded();

/** The fastest kernel available here. */
export const pcg64Fill: Pcg64Kernel = pcg64FillWasm ?? pcg64FillJs;
