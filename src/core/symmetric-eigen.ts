/**
 * Eigen-decomposition of a real symmetric matrix: Householder reduction to tridiagonal form, then
 * the implicit QL method (EISPACK's tred2 and tql2, as in the public-domain JAMA library).
 *
 * Why this and not cyclic Jacobi: both are backward stable and well inside the 1e-9 the graph
 * signals are checked to (graph-uncertainty.ts against scipy's LAPACK `eigh`). Jacobi was the
 * first version here; on the same 50×50 matrices it took 4–6 times as long (about ten sweeps of
 * n³ rotation work, against a few n³ flops for tred2 + tql2), which matters for 40,000 questions.
 * core/ imports no npm package, so a library was not an option.
 *
 * Matrices are row-major Float64Arrays of length n·n. Only the lower triangle of the input is read
 * (the input is not modified). Eigenvalues come back in ascending order (as LAPACK's `syevd`,
 * behind scipy.linalg.eigh, returns them); eigenvector k is column k of `vectors`, unit length.
 * An eigenvector's sign, and the basis chosen inside a repeated eigenvalue's eigenspace, are
 * arbitrary (as in LAPACK): callers must only use quantities that do not depend on them.
 * A non-finite entry gives NaN values and vectors.
 */

export interface SymmetricEigen {
  /** Ascending. */
  values: Float64Array;
  /** Row-major n×n; column k is the unit eigenvector of values[k]. Absent when not asked for. */
  vectors?: Float64Array;
}

/** QL iterations allowed per eigenvalue; tql2 needs 1–3 in practice. */
const MAX_ITERATIONS = 60;
const EPS = 2 ** -52;

/** Eigenvalues (ascending) and, unless `vectors` is false, eigenvectors of the symmetric n×n matrix `a`. */
export function symmetricEigen(a: ArrayLike<number>, n: number, { vectors: withVectors = true }: { vectors?: boolean } = {}): SymmetricEigen {
  if (!Number.isInteger(n) || n < 0 || a.length < n * n) throw new RangeError(`symmetricEigen: need an n×n matrix, got length ${a.length} for n = ${n}`);
  const v = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j <= i; j++) {
      const x = a[i * n + j];
      if (!Number.isFinite(x)) return nanResult(n, { vectors: withVectors });
      v[i * n + j] = v[j * n + i] = x;
    }
  }
  const d = new Float64Array(n);
  const e = new Float64Array(n);
  if (n > 0) {
    tridiagonalize(v, d, e, n);
    if (!diagonalize(v, d, e, n)) return nanResult(n, { vectors: withVectors });
  }
  return sortAscending(d, withVectors ? v : null, n);
}

/** tred2: v ← Q with Qᵀ A Q tridiagonal; d its diagonal, e[1..n−1] its subdiagonal. */
function tridiagonalize(v: Float64Array, d: Float64Array, e: Float64Array, n: number): void {
  for (let j = 0; j < n; j++) d[j] = v[(n - 1) * n + j];
  for (let i = n - 1; i > 0; i--) {
    // Scale to avoid under/overflow.
    let scale = 0;
    let h = 0;
    for (let k = 0; k < i; k++) scale += Math.abs(d[k]);
    if (scale === 0) {
      e[i] = d[i - 1];
      for (let j = 0; j < i; j++) {
        d[j] = v[(i - 1) * n + j];
        v[i * n + j] = 0;
        v[j * n + i] = 0;
      }
    } else {
      // Generate the Householder vector.
      for (let k = 0; k < i; k++) {
        d[k] /= scale;
        h += d[k] * d[k];
      }
      let f = d[i - 1];
      let g = Math.sqrt(h);
      if (f > 0) g = -g;
      e[i] = scale * g;
      h -= f * g;
      d[i - 1] = f - g;
      for (let j = 0; j < i; j++) e[j] = 0;
      // Apply the similarity transformation to the remaining columns.
      for (let j = 0; j < i; j++) {
        f = d[j];
        v[j * n + i] = f;
        g = e[j] + v[j * n + j] * f;
        for (let k = j + 1; k <= i - 1; k++) {
          g += v[k * n + j] * d[k];
          e[k] += v[k * n + j] * f;
        }
        e[j] = g;
      }
      f = 0;
      for (let j = 0; j < i; j++) {
        e[j] /= h;
        f += e[j] * d[j];
      }
      const hh = f / (h + h);
      for (let j = 0; j < i; j++) e[j] -= hh * d[j];
      for (let j = 0; j < i; j++) {
        f = d[j];
        g = e[j];
        for (let k = j; k <= i - 1; k++) v[k * n + j] -= f * e[k] + g * d[k];
        d[j] = v[(i - 1) * n + j];
        v[i * n + j] = 0;
      }
    }
    d[i] = h;
  }
  // Accumulate the transformations.
  for (let i = 0; i < n - 1; i++) {
    v[(n - 1) * n + i] = v[i * n + i];
    v[i * n + i] = 1;
    const h = d[i + 1];
    if (h !== 0) {
      for (let k = 0; k <= i; k++) d[k] = v[k * n + i + 1] / h;
      for (let j = 0; j <= i; j++) {
        let g = 0;
        for (let k = 0; k <= i; k++) g += v[k * n + i + 1] * v[k * n + j];
        for (let k = 0; k <= i; k++) v[k * n + j] -= g * d[k];
      }
    }
    for (let k = 0; k <= i; k++) v[k * n + i + 1] = 0;
  }
  for (let j = 0; j < n; j++) {
    d[j] = v[(n - 1) * n + j];
    v[(n - 1) * n + j] = 0;
  }
  v[(n - 1) * n + n - 1] = 1;
  e[0] = 0;
}

/** tql2: diagonalize the tridiagonal (d, e), rotating v's columns along; false if it failed to converge. */
function diagonalize(v: Float64Array, d: Float64Array, e: Float64Array, n: number): boolean {
  for (let i = 1; i < n; i++) e[i - 1] = e[i];
  e[n - 1] = 0;
  let f = 0;
  let tst1 = 0;
  for (let l = 0; l < n; l++) {
    // Find a small subdiagonal element.
    tst1 = Math.max(tst1, Math.abs(d[l]) + Math.abs(e[l]));
    let m = l;
    while (m < n - 1 && Math.abs(e[m]) > EPS * tst1) m++;
    // If m === l, d[l] is already an eigenvalue; otherwise iterate.
    if (m > l) {
      let iterations = 0;
      do {
        if (++iterations > MAX_ITERATIONS) return false;
        // Compute the implicit shift.
        let g = d[l];
        let p = (d[l + 1] - g) / (2 * e[l]);
        let r = hypot(p, 1);
        if (p < 0) r = -r;
        d[l] = e[l] / (p + r);
        d[l + 1] = e[l] * (p + r);
        const dl1 = d[l + 1];
        let h = g - d[l];
        for (let i = l + 2; i < n; i++) d[i] -= h;
        f += h;
        // Implicit QL transformation.
        p = d[m];
        let c = 1;
        let c2 = c;
        let c3 = c;
        const el1 = e[l + 1];
        let s = 0;
        let s2 = 0;
        for (let i = m - 1; i >= l; i--) {
          c3 = c2;
          c2 = c;
          s2 = s;
          g = c * e[i];
          h = c * p;
          r = hypot(p, e[i]);
          e[i + 1] = s * r;
          s = e[i] / r;
          c = p / r;
          p = c * d[i] - s * g;
          d[i + 1] = h + s * (c * g + s * d[i]);
          for (let k = 0; k < n; k++) {
            const ki = k * n + i;
            h = v[ki + 1];
            v[ki + 1] = s * v[ki] + c * h;
            v[ki] = c * v[ki] - s * h;
          }
        }
        p = (-s * s2 * c3 * el1 * e[l]) / dl1;
        e[l] = s * p;
        d[l] = c * p;
      } while (Math.abs(e[l]) > EPS * tst1);
    }
    d[l] += f;
    e[l] = 0;
  }
  return true;
}

/** sqrt(a² + b²) without overflow or destructive underflow (cheaper than Math.hypot's variadic form). */
function hypot(a: number, b: number): number {
  const x = Math.abs(a);
  const y = Math.abs(b);
  const big = x > y ? x : y;
  if (big === 0) return 0;
  const small = x > y ? y : x;
  const q = small / big;
  return big * Math.sqrt(1 + q * q);
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

function nanResult(n: number, { vectors: withVectors }: { vectors: boolean }): SymmetricEigen {
  const values = new Float64Array(n).fill(NaN);
  return withVectors ? { values, vectors: new Float64Array(n * n).fill(NaN) } : { values };
}
