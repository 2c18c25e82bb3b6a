/**
 * EigV, Deg and Ecc (graph-uncertainty.ts, LM-Polygraph's conventions) of m samples whose
 * similarity is given between g groups of identical answers: W = P S Pᵀ, where S is the g×g
 * similarity of the groups (an embedding clustering's cosines between its distinct answers) and P
 * puts each sample in its group, so two samples of one group have similarity S_gg (1 for cosines).
 * The m×m matrix is never built: at m = 50 samples and a handful of distinct answers the
 * decomposition is g×g instead of 50×50.
 *
 * Why it is the same. Each sample of group g has degree δ_g = Σ_h S_gh n_h (n_h the group sizes),
 * so D^{−1/2} W D^{−1/2} = P B Pᵀ with B_gh = S_gh / √(δ_g δ_h). For an eigenpair (μ, v) of the
 * symmetric g×g matrix M = N^{1/2} B N^{1/2} (N = diag n), u = P N^{−1/2} v is a unit eigenvector of
 * P B Pᵀ with the same μ; the m − g directions orthogonal to the groups (Pᵀx = 0) are its kernel.
 * So L = I − D^{−1/2} W D^{−1/2} has the eigenvalues 1 − μ_k (k = 1 … g) and 1 (m − g times), and:
 *   EigV = Σ_k max(0, μ_k)                    (the eigenvalue-1 ones add max(0, 0))
 *   Deg  = 1 − Σ_gh n_g n_h S_gh / m²
 *   Ecc² = Σ_{k: 1 − μ_k < thr} Σ_g (v_kg − √n_g ū_k)²    (‖u − ū1‖² with ū_k = Σ_g √n_g v_kg / m)
 * where the eigenvalue-1 directions are never kept for a threshold ≤ 1 (LM-Polygraph's 0.9). The unit
 * tests check all three against graphUncertainty on the expanded matrix. S is symmetrised first,
 * as graphUncertainty symmetrises W; a group degree ≤ 0 makes EigV and Ecc NaN.
 */
import { ECCENTRICITY_THRESHOLD, type GraphUncertainty, type GraphUncertaintyOptions } from './graph-uncertainty';
import { symmetricEigen } from './symmetric-eigen';

/** The graph uncertainties of the samples from the g×g group similarity `s` (row-major) and the group sizes. */
export function groupedGraphUncertainty(s: ArrayLike<number>, sizes: ArrayLike<number>, options: GraphUncertaintyOptions = {}): GraphUncertainty {
  const g = sizes.length;
  if (s.length !== g * g) throw new RangeError(`group similarity: need ${g * g} entries for ${g} groups, got ${s.length}`);
  const threshold = options.eccThreshold ?? ECCENTRICITY_THRESHOLD;
  if (threshold > 1) throw new RangeError('groupedGraphUncertainty: an Ecc threshold above 1 would keep the eigenvalue-1 directions; use graphUncertainty');
  let m = 0;
  for (let a = 0; a < g; a++) {
    if (!Number.isInteger(sizes[a]) || sizes[a] < 1) throw new RangeError(`group ${a} has size ${sizes[a]}`);
    m += sizes[a];
  }
  if (m === 0) return { eigV: NaN, deg: NaN, ecc: NaN };
  const sym = new Float64Array(g * g);
  for (let a = 0; a < g; a++) for (let b = 0; b < g; b++) sym[a * g + b] = (s[a * g + b] + s[b * g + a]) / 2;
  const delta = new Float64Array(g);
  let total = 0;
  for (let a = 0; a < g; a++) {
    let d = 0;
    for (let b = 0; b < g; b++) d += sym[a * g + b] * sizes[b];
    delta[a] = d;
    total += sizes[a] * d;
  }
  const deg = 1 - total / (m * m);
  for (let a = 0; a < g; a++) if (!(delta[a] > 0) || !Number.isFinite(delta[a])) return { eigV: NaN, deg, ecc: NaN };
  // M = N^{1/2} B N^{1/2}: M_ab = √(n_a n_b) S_ab / √(δ_a δ_b).
  const w = Float64Array.from(sizes, (n, a) => Math.sqrt(n / delta[a]));
  const mm = new Float64Array(g * g);
  for (let a = 0; a < g; a++) for (let b = 0; b < g; b++) mm[a * g + b] = w[a] * sym[a * g + b] * w[b];
  const { values, vectors } = symmetricEigen(mm, g, { vectors: true });
  let eigV = 0;
  let ecc2 = 0;
  for (let k = 0; k < g; k++) {
    const mu = values[k];
    eigV += Math.max(0, mu);
    if (!(1 - mu < threshold)) continue;
    // ‖u − ū1‖² summed as Σ_g n_g (v_g/√n_g − ū)² = Σ_g (v_g − √n_g ū)², not as 1 − m ū², which
    // cancels to a rounding residue (1e-16, then 1e-8 after the root) where u is nearly constant.
    let mean = 0;
    for (let a = 0; a < g; a++) mean += Math.sqrt(sizes[a]) * vectors![a * g + k];
    mean /= m;
    for (let a = 0; a < g; a++) ecc2 += (vectors![a * g + k] - Math.sqrt(sizes[a]) * mean) ** 2;
  }
  return { eigV, deg, ecc: Math.sqrt(ecc2) };
}
