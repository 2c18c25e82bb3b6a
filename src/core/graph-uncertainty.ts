/**
 * Graph uncertainty of one question's m samples (Lin, Trivedi & Sun 2023, "Generating with
 * Confidence: Uncertainty Quantification for Black-box Large Language Models", arXiv 2305.19187):
 * EigV (sum of eigenvalues of the graph Laplacian), Deg (degree matrix) and Ecc (eccentricity),
 * computed exactly as LM-Polygraph computes them (IINemo/lm-polygraph at commit
 * efea882d810d07770e71d3a80e02416d09751435, src/lm_polygraph/estimators/eig_val_laplacian.py,
 * deg_mat.py, eccentricity.py). All three are UNCERTAINTIES: larger means less confident.
 *
 * Conventions, each as LM-Polygraph has it:
 * - W is the m×m similarity matrix as given, row-major: for NLI, W[i][j] = p_entail(sample i ⇒
 *   sample j) (LM-Polygraph's `semantic_matrix_entail`, affinity "entail"), or 1 − p_contra
 *   (affinity "contra"); for the Jaccard similarity, lexical-similarity.ts. Its diagonal is used as
 *   given (NLI: the model's entailment probability of a sample with itself; Jaccard and the 0/1
 *   same-class matrix: 1). Nothing is clipped: entries are expected in [0, 1].
 * - W is symmetrised as (W + Wᵀ)/2 (an exact no-op for a symmetric W, such as Jaccard's).
 * - d_i = Σ_j W_ij (diagonal included); L = I − D^{−1/2} W D^{−1/2}, the normalized Laplacian.
 * - EigV = Σ_k max(0, 1 − λ_k) over the eigenvalues λ_k of L.
 * - Deg = trace(m·I − D)/m² = 1 − Σ_ij W_ij / m², i.e. one minus the mean similarity with the
 *   diagonal included. LM-Polygraph returns this uncertainty (the paper's U_Deg); the paper's
 *   confidence C_Deg(s_j) = D_jj/m is per sample and is not computed here.
 * - Ecc: the eigenvectors u_l of L (unit length) whose eigenvalue is below 0.9 (LM-Polygraph's
 *   `thres`, default 0.9, strict <); each is centred over the samples, and Ecc = sqrt(Σ_l ‖u_l −
 *   mean(u_l)·1‖²), the Frobenius norm of the centred m×k spectral embedding. LM-Polygraph calls
 *   its per-eigenvector norms C_Ecc_s_j, but the returned U_Ecc equals the paper's
 *   ‖[v_1 − v̄, …, v_m − v̄]‖ since a Frobenius norm does not care which axis is centred. Ecc does
 *   not depend on the sign or the basis chosen for the eigenvectors (it is trace(P_S·C) for the
 *   projector P_S onto their span and the centring C), unless 0.9 splits a repeated eigenvalue.
 * - A row sum d_i ≤ 0 (or a non-finite entry) makes D^{−1/2} undefined: numpy raises (singular
 *   matrix) or gives NaN; here EigV and Ecc are NaN. Deg needs no inverse and is still computed.
 * - m = 0: every value NaN (the core's convention for an undefined statistic).
 *
 * With only a partition (class label per sample), W is the 0/1 same-class matrix (diagonal 1).
 * Then D^{−1/2} W D^{−1/2} is block diagonal with blocks J/n_c (J all ones), whose eigenvalues are
 * 1 (once per class) and 0, so L has eigenvalue 0 with multiplicity K (eigenvectors 1_c/√n_c) and
 * 1 with multiplicity m − K. Closed forms, for K non-empty classes of sizes n_c:
 *   EigV = K
 *   Deg  = 1 − Σ_c n_c² / m²     (the Gini impurity of the class frequencies)
 *   Ecc  = sqrt(K − 1)           (Ecc² = K − ‖P_S 1‖²/m, and ‖P_S 1‖² = Σ_c (n_c/√n_c)² = m)
 * `partitionGraphUncertainty` uses them; the unit tests check them against the general path.
 */
import { pairwiseSum } from './pairwise';
import { partitionClassSizes } from './semantic-sets';
import { symmetricEigen } from './symmetric-eigen';

/** LM-Polygraph's Eccentricity `thres`: eigenvectors with eigenvalue < 0.9 are kept. */
export const ECCENTRICITY_THRESHOLD = 0.9;

/** The three graph uncertainties of one question; larger means less confident. */
export interface GraphUncertainty {
  eigV: number;
  deg: number;
  ecc: number;
}

export interface GraphUncertaintyOptions {
  /** Eigenvalue threshold of Ecc (default 0.9, LM-Polygraph's). */
  eccThreshold?: number;
}

const NAN_GRAPH: GraphUncertainty = { eigV: NaN, deg: NaN, ecc: NaN };

/** (W + Wᵀ)/2, row-major, as LM-Polygraph symmetrises the NLI matrix. */
export function symmetrise(w: ArrayLike<number>, m: number): Float64Array {
  checkSquare(w, m);
  const s = new Float64Array(m * m);
  for (let i = 0; i < m; i++) for (let j = 0; j < m; j++) s[i * m + j] = (w[i * m + j] + w[j * m + i]) / 2;
  return s;
}

/** Row sums of a row-major m×m matrix, summed as numpy's `W.sum(axis=1)` does. */
function rowSums(w: Float64Array, m: number): Float64Array {
  const d = new Float64Array(m);
  for (let i = 0; i < m; i++) d[i] = pairwiseSum(w, i * m, (i + 1) * m);
  return d;
}

/**
 * L = I − D^{−1/2} W D^{−1/2} of a symmetric W with row sums d, multiplied in numpy's order
 * ((d_i^{−1/2} · W_ij) · d_j^{−1/2}); null when some d_i is not a positive finite number.
 */
export function normalizedLaplacian(ws: Float64Array, d: Float64Array, m: number): Float64Array | null {
  const r = new Float64Array(m);
  for (let i = 0; i < m; i++) {
    if (!(d[i] > 0) || !Number.isFinite(d[i])) return null;
    r[i] = 1 / Math.sqrt(d[i]);
  }
  const l = new Float64Array(m * m);
  for (let i = 0; i < m; i++) {
    for (let j = 0; j < m; j++) l[i * m + j] = (i === j ? 1 : 0) - r[i] * ws[i * m + j] * r[j];
  }
  return l;
}

/** Deg = trace(m − D)/m² from the row sums of the symmetrised W. */
function degFromRowSums(d: Float64Array, m: number): number {
  if (m === 0) return NaN;
  let trace = 0;
  for (let i = 0; i < m; i++) trace += m - d[i];
  return trace / (m * m);
}

/** EigV = Σ max(0, 1 − λ) over the Laplacian's eigenvalues. */
function eigVFromValues(values: Float64Array): number {
  let s = 0;
  for (const lambda of values) s += Math.max(0, 1 - lambda);
  return s;
}

/** Ecc from the Laplacian's eigenpairs (vectors row-major, column k ↔ values[k]). */
function eccFromPairs(values: Float64Array, vectors: Float64Array, m: number, threshold: number): number {
  let sumSquares = 0;
  const column = new Float64Array(m);
  for (let k = 0; k < m; k++) {
    if (!(values[k] < threshold)) continue;
    for (let i = 0; i < m; i++) column[i] = vectors[i * m + k];
    const mean = pairwiseSum(column) / m;
    let norm2 = 0;
    for (let i = 0; i < m; i++) norm2 += (column[i] - mean) ** 2;
    // LM-Polygraph takes the norm of each centred eigenvector, then the norm of those norms.
    sumSquares += Math.sqrt(norm2) ** 2;
  }
  return Math.sqrt(sumSquares);
}

/** EigV, Deg and Ecc of one question from its m×m similarity matrix W (row-major; see the file's conventions). */
export function graphUncertainty(w: ArrayLike<number>, m: number, options: GraphUncertaintyOptions = {}): GraphUncertainty {
  if (m === 0) return { ...NAN_GRAPH };
  const ws = symmetrise(w, m);
  const d = rowSums(ws, m);
  const deg = degFromRowSums(d, m);
  const l = normalizedLaplacian(ws, d, m);
  if (!l) return { eigV: NaN, deg, ecc: NaN };
  const { values, vectors } = symmetricEigen(l, m, { vectors: true });
  return { eigV: eigVFromValues(values), deg, ecc: eccFromPairs(values, vectors!, m, options.eccThreshold ?? ECCENTRICITY_THRESHOLD) };
}

/** EigV alone (no eigenvectors computed). */
export function eigValLaplacian(w: ArrayLike<number>, m: number): number {
  if (m === 0) return NaN;
  const ws = symmetrise(w, m);
  const l = normalizedLaplacian(ws, rowSums(ws, m), m);
  return l ? eigVFromValues(symmetricEigen(l, m, { vectors: false }).values) : NaN;
}

/** Deg alone: 1 − mean of the symmetrised W, as trace(m − D)/m². */
export function degreeMatrixUncertainty(w: ArrayLike<number>, m: number): number {
  if (m === 0) return NaN;
  const ws = symmetrise(w, m);
  return degFromRowSums(rowSums(ws, m), m);
}

/**
 * The closed forms for a hard partition (W = the 0/1 same-class matrix): EigV = K, Deg = 1 −
 * Σ n_c²/m², Ecc = sqrt(K − 1). Labels are any non-negative integers (class label per sample, in
 * sampling order); K counts the distinct labels. One pass, no matrix: fast enough for tens of
 * thousands of questions. NaN for every value when there are no samples.
 */
export function partitionGraphUncertainty(labels: ArrayLike<number>): GraphUncertainty {
  return classSizeGraphUncertainty(partitionClassSizes(labels));
}

/** The same closed forms from the sizes of the classes (empty classes are ignored). */
export function classSizeGraphUncertainty(sizes: ArrayLike<number>): GraphUncertainty {
  let m = 0;
  let k = 0;
  let sumSquares = 0;
  for (let c = 0; c < sizes.length; c++) {
    const n = sizes[c];
    if (n > 0) {
      m += n;
      k++;
      sumSquares += n * n;
    }
  }
  if (m === 0) return { ...NAN_GRAPH };
  return { eigV: k, deg: 1 - sumSquares / (m * m), ecc: Math.sqrt(k - 1) };
}

/** The 0/1 same-class similarity matrix of a partition (row-major m×m, diagonal 1). */
export function sameClassSimilarity(labels: ArrayLike<number>): Float64Array {
  const m = labels.length;
  const w = new Float64Array(m * m);
  for (let i = 0; i < m; i++) for (let j = 0; j < m; j++) w[i * m + j] = labels[i] === labels[j] ? 1 : 0;
  return w;
}

function checkSquare(w: ArrayLike<number>, m: number): void {
  if (!Number.isInteger(m) || m < 0 || w.length !== m * m) throw new RangeError(`similarity matrix: need m×m = ${m * m} entries for m = ${m}, got ${w.length}`);
}
