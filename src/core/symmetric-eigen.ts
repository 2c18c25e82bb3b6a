/**
 * Eigen-decomposition of a real symmetric matrix by the cyclic Jacobi method (Rutishauser's
 * variant with a threshold on the first sweeps, as in Numerical Recipes' `jacobi`).
 *
 * Why Jacobi: the graph signals (graph-uncertainty.ts) decompose Laplacians of ≤ a few hundred
 * samples. Jacobi is short enough to check by eye, converges quadratically, and computes small
 * eigenvalues to high relative accuracy; core/ imports no npm package, so a library was not an
 * option. Cost: about 6–10 sweeps of n³ rotations each — for n = 50, roughly a millisecond.
 *
 * Matrices are row-major Float64Arrays of length n·n. Only the upper triangle of the input is read
 * (the input is not modified). Eigenvalues come back in ascending order (as LAPACK's `syevd`,
 * behind scipy.linalg.eigh, returns them); eigenvector k is column k of `vectors`, unit length.
 * An eigenvector's sign, and the basis chosen inside a repeated eigenvalue's eigenspace, are
 * arbitrary (as in LAPACK): callers must only use quantities that do not depend on them.
 * Non-finite input gives NaN output after at most MAX_SWEEPS sweeps; it never loops forever.
 */

export interface SymmetricEigen {
  /** Ascending. */
  values: Float64Array;
  /** Row-major n×n; column k is the unit eigenvector of values[k]. Absent when not asked for. */
  vectors?: Float64Array;
}

const MAX_SWEEPS = 60;

/** Eigenvalues (ascending) and, when `withVectors`, eigenvectors of the symmetric n×n matrix `a`. */
export function symmetricEigen(a: ArrayLike<number>, n: number, withVectors = true): SymmetricEigen {
  if (!Number.isInteger(n) || n < 0 || a.length < n * n) throw new RangeError(`symmetricEigen: need an n×n matrix, got length ${a.length} for n = ${n}`);
  const m = new Float64Array(n * n);
  for (let i = 0; i < n; i++) for (let j = i; j < n; j++) m[i * n + j] = a[i * n + j];
  const v = withVectors ? new Float64Array(n * n) : null;
  if (v) for (let i = 0; i < n; i++) v[i * n + i] = 1;
  const d = new Float64Array(n);
  const b = new Float64Array(n);
  const z = new Float64Array(n);
  for (let i = 0; i < n; i++) d[i] = b[i] = m[i * n + i];

  let finite = true;
  for (let i = 0; i < n * n; i++) if (!Number.isFinite(m[i])) finite = false;
  if (!finite) return nanResult(n, withVectors);

  // Only the strict upper triangle is kept up to date; d holds the diagonal, b and z accumulate
  // the sweep's diagonal updates so that they are added once per sweep (less rounding).
  for (let sweep = 1; sweep <= MAX_SWEEPS; sweep++) {
    let off = 0;
    for (let p = 0; p < n - 1; p++) for (let q = p + 1; q < n; q++) off += Math.abs(m[p * n + q]);
    if (off === 0) break;
    const threshold = sweep < 4 ? (0.2 * off) / (n * n) : 0;
    for (let p = 0; p < n - 1; p++) {
      for (let q = p + 1; q < n; q++) {
        const apq = m[p * n + q];
        const g = 100 * Math.abs(apq);
        // After four sweeps, an off-diagonal entry too small to change either diagonal entry is zeroed.
        if (sweep > 4 && Math.abs(d[p]) + g === Math.abs(d[p]) && Math.abs(d[q]) + g === Math.abs(d[q])) {
          m[p * n + q] = 0;
        } else if (Math.abs(apq) > threshold) {
          let h = d[q] - d[p];
          let t: number;
          if (Math.abs(h) + g === Math.abs(h)) {
            t = apq / h;
          } else {
            const theta = (0.5 * h) / apq;
            t = 1 / (Math.abs(theta) + Math.sqrt(1 + theta * theta));
            if (theta < 0) t = -t;
          }
          const c = 1 / Math.sqrt(1 + t * t);
          const s = t * c;
          const tau = s / (1 + c);
          h = t * apq;
          z[p] -= h;
          z[q] += h;
          d[p] -= h;
          d[q] += h;
          m[p * n + q] = 0;
          for (let j = 0; j < p; j++) rotate(m, j * n + p, j * n + q, s, tau);
          for (let j = p + 1; j < q; j++) rotate(m, p * n + j, j * n + q, s, tau);
          for (let j = q + 1; j < n; j++) rotate(m, p * n + j, q * n + j, s, tau);
          if (v) for (let j = 0; j < n; j++) rotate(v, j * n + p, j * n + q, s, tau);
        }
      }
    }
    for (let p = 0; p < n; p++) {
      b[p] += z[p];
      d[p] = b[p];
      z[p] = 0;
    }
  }
  return sortAscending(d, v, n);
}

function rotate(x: Float64Array, ij: number, kl: number, s: number, tau: number): void {
  const g = x[ij];
  const h = x[kl];
  x[ij] = g - s * (h + g * tau);
  x[kl] = h + s * (g - h * tau);
}

function sortAscending(d: Float64Array, v: Float64Array | null, n: number): SymmetricEigen {
  const order = Array.from({ length: n }, (_, i) => i).sort((i, j) => d[i] - d[j] || i - j);
  const values = new Float64Array(n);
  for (let k = 0; k < n; k++) values[k] = d[order[k]];
  if (!v) return { values };
  const vectors = new Float64Array(n * n);
  for (let k = 0; k < n; k++) {
    const src = order[k];
    for (let i = 0; i < n; i++) vectors[i * n + k] = v[i * n + src];
  }
  return { values, vectors };
}

function nanResult(n: number, withVectors: boolean): SymmetricEigen {
  const values = new Float64Array(n).fill(NaN);
  return withVectors ? { values, vectors: new Float64Array(n * n).fill(NaN) } : { values };
}
