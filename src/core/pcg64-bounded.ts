/**
 * numpy's buffered bounded Lemire (`integers` on next32) over PCG64 in WebAssembly, with the
 * LCG's serial dependency halved: from a state S it computes the next two states at once,
 *   P = M·S + inc,   Q = M²·S + (M + 1)·inc   (mod 2^128),
 * two independent 128-bit multiply-adds, then consumes the four 32-bit halves of their outputs
 * in stream order (P low, P high, Q low, Q high) and moves on from Q. The stream, the rejections
 * and the state left behind (including the buffered high half) are exactly those of one step
 * at a time; tests compare it with one-draw-at-a-time `integers` from any stream position.
 *
 * Memory: state (lo, hi) at 0, 8; increment at 16, 24; buffered half at 32, its flag at 36;
 * (M + 1)·inc at 40, 48; outputs (u32) from byte 128.
 */
import { i64c, name, section, uleb, wasmApi } from './wasm-bytes';

const MASK64 = (1n << 64n) - 1n;
const MASK128 = (1n << 128n) - 1n;
const MULT = 0x2360ed051fc65da44385df649fccf645n;
const MULT2 = (MULT * MULT) & MASK128;
const OUT = 128;
const MAX_COUNT = (65536 - OUT) / 4;


const GET = 0x20, SET = 0x21, TEE = 0x22;
const MUL = 0x7e, ADD = 0x7c, AND = 0x83, XOR = 0x85, SHR_U = 0x88, ROTR = 0x8a, LT_U = 0x54;
const M32 = i64c(0xffffffffn), S32 = i64c(32n);

// Locals: params 0 n (i32), 1 rngExcl (i64), 2 threshold (i64); i32 3 k, 4 has;
// i64 5 sLo, 6 sHi, 7 iLo, 8 iHi, 9 cLo, 10 cHi, 11 pLo, 12 pHi, 13 qLo, 14 qHi,
//     15 a0, 16 a1, 17 p01, 18 p10, 19 mid, 20 buf, 21 x, 22 m, 23 o.
const N = 0, R = 1, T = 2, K = 3, HAS = 4, S_LO = 5, S_HI = 6, I_LO = 7, I_HI = 8, C_LO = 9, C_HI = 10;
const P_LO = 11, P_HI = 12, Q_LO = 13, Q_HI = 14, A0 = 15, A1 = 16, P01 = 17, P10 = 18, MID = 19;
const BUF = 20, X = 21, MM = 22, O = 23;

/** (dLo, dHi) = (sLo, sHi)·mult + (addLo, addHi) mod 2^128, mult a constant. */
function mulAdd(mult: bigint, addLo: number, addHi: number, dLo: number, dHi: number): number[] {
  const ml = mult & MASK64, mh = mult >> 64n;
  const b0 = ml & 0xffffffffn, b1 = ml >> 32n;
  return [
    GET, S_LO, ...M32, AND, SET, A0,
    GET, S_LO, ...S32, SHR_U, SET, A1,
    GET, A0, ...i64c(b1), MUL, SET, P01,
    GET, A1, ...i64c(b0), MUL, SET, P10,
    GET, A0, ...i64c(b0), MUL, ...S32, SHR_U,
    GET, P01, ...M32, AND, ADD, GET, P10, ...M32, AND, ADD, SET, MID,
    GET, A1, ...i64c(b1), MUL,
    GET, P01, ...S32, SHR_U, ADD, GET, P10, ...S32, SHR_U, ADD, GET, MID, ...S32, SHR_U, ADD,
    GET, S_HI, ...i64c(ml), MUL, ADD, GET, S_LO, ...i64c(mh), MUL, ADD, SET, dHi,
    GET, S_LO, ...i64c(ml), MUL, GET, addLo, ADD, SET, dLo,
    GET, dHi, GET, addHi, ADD, GET, dLo, GET, addLo, LT_U, 0xad, ADD, SET, dHi,
  ];
}

/** XSL-RR output of the state in (lo, hi), into O. */
const output = (lo: number, hi: number) => [GET, hi, GET, lo, XOR, GET, hi, ...i64c(58n), SHR_U, ROTR, SET, O];

/** One draw x = X: Lemire's test; if kept, store it; if that was the n-th, run `done` and leave. */
function draw(done: number[]): number[] {
  return [
    GET, X, GET, R, MUL, TEE, MM, ...M32, AND, GET, T, LT_U, 0x45, 0x04, 0x40, // if leftover ≥ threshold
    GET, K, 0x41, 2, 0x74, GET, MM, ...S32, SHR_U, 0xa7, 0x36, 2, ...uleb(OUT), // store m >> 32
    GET, K, 0x41, 1, 0x6a, TEE, K, GET, N, 0x46, 0x04, 0x40, // if ++k == n
    ...done, 0x0c, 3,
    0x0b, 0x0b,
  ];
}
/** What runs when a draw is done: the state is saved; `buffered`: the output's high 32 bits are unused yet and kept for the next draw. */
const keep = (lo: number, hi: number, { buffered }: { buffered: boolean }) => [
  GET, lo, SET, S_LO, GET, hi, SET, S_HI,
  ...(buffered ? [GET, O, ...S32, SHR_U, SET, BUF, 0x41, 1, SET, HAS] : [0x41, 0, SET, HAS]),
];

function body(): number[] {
  const load = (offset: number) => [0x41, 0, 0x29, 3, offset];
  return [
    ...load(0), SET, S_LO, ...load(8), SET, S_HI, ...load(16), SET, I_LO, ...load(24), SET, I_HI,
    ...load(40), SET, C_LO, ...load(48), SET, C_HI,
    0x41, 0, 0x35, 2, 32, SET, BUF, 0x41, 0, 0x28, 2, 36, SET, HAS,
    0x02, 0x40, // block $exit
    GET, HAS, 0x04, 0x40, // the buffered half first
    0x41, 0, SET, HAS, GET, BUF, SET, X, ...draw([]),
    0x0b,
    0x03, 0x40, // loop
    ...mulAdd(MULT, I_LO, I_HI, P_LO, P_HI),
    ...mulAdd(MULT2, C_LO, C_HI, Q_LO, Q_HI),
    ...output(P_LO, P_HI),
    GET, O, ...M32, AND, SET, X, ...draw(keep(P_LO, P_HI, { buffered: true })),
    GET, O, ...S32, SHR_U, SET, X, ...draw(keep(P_LO, P_HI, { buffered: false })),
    ...output(Q_LO, Q_HI),
    GET, O, ...M32, AND, SET, X, ...draw(keep(Q_LO, Q_HI, { buffered: true })),
    GET, O, ...S32, SHR_U, SET, X, ...draw(keep(Q_LO, Q_HI, { buffered: false })),
    GET, Q_LO, SET, S_LO, GET, Q_HI, SET, S_HI,
    0x0c, 0, 0x0b, // br loop; end loop
    0x0b, // end block
    0x41, 0, GET, S_LO, 0x37, 3, 0, 0x41, 0, GET, S_HI, 0x37, 3, 8,
    0x41, 0, GET, BUF, 0x3e, 2, 32, 0x41, 0, GET, HAS, 0x36, 2, 36,
    0x0b,
  ];
}

function assemble(): Uint8Array {
  const code = body();
  const locals = [2, 2, 0x7f, 19, 0x7e];
  const func = [...uleb(locals.length + code.length), ...locals, ...code];
  return new Uint8Array([
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
    ...section(1, [1, 0x60, 3, 0x7f, 0x7e, 0x7e, 0]),
    ...section(3, [1, 0]),
    ...section(5, [1, 0, 1]),
    ...section(7, [2, ...name('g'), 0, 0, ...name('m'), 2, 0]),
    ...section(10, [1, ...func]),
  ]);
}

/** The two-states-at-a-time bounded kernel, or null where WebAssembly is unavailable. */
/**
 * numpy's buffered bounded Lemire on next32, `out.length` times: out[i] = low + a uniform integer
 * in [0, rngExcl). `words` (state, increment) must be positioned after the last consumed 64-bit
 * draw; `half` = [has a buffered high half (0/1), that half]; both are advanced. Rejects a draw
 * when its low product word is below `threshold` = (2^32 − rngExcl) mod rngExcl, as numpy does.
 */
export type Lemire32Kernel = (
  words: Uint32Array, half: Uint32Array, rngExcl: number, threshold: number, low: number, out: Int32Array | Float64Array,
) => void;

export function makePairedStepBounded(): Lemire32Kernel | null {
  const api = wasmApi();
  if (!api) return null;
  try {
    const { exports } = new api.Instance(new api.Module(assemble()));
    const g = exports.g as (n: number, rngExcl: bigint, threshold: bigint) => void;
    const memory = exports.m as { buffer: ArrayBuffer };
    return (words, half, rngExcl, threshold, low, out) => {
      const mem = new Uint32Array(memory.buffer);
      const r = BigInt(rngExcl), t = BigInt(threshold);
      let inc = 0n;
      for (let k = 7; k >= 4; k--) inc = (inc << 32n) | BigInt(words[k]);
      const c2 = ((MULT + 1n) * inc) & MASK128;
      for (let k = 0; k < 4; k++) mem[10 + k] = Number((c2 >> BigInt(32 * k)) & 0xffffffffn);
      const direct = low === 0 && out instanceof Int32Array;
      for (let done = 0; done < out.length; ) {
        const chunk = Math.min(out.length - done, MAX_COUNT);
        mem.set(words, 0);
        mem[8] = half[1];
        mem[9] = half[0];
        g(chunk, r, t);
        words.set(mem.subarray(0, 4), 0);
        half[1] = mem[8];
        half[0] = mem[9];
        if (direct) out.set(mem.subarray(OUT / 4, OUT / 4 + chunk), done);
        else for (let k = 0; k < chunk; k++) out[done + k] = low + mem[OUT / 4 + k];
        done += chunk;
      }
    };
  } catch {
    return null;
  }
}
