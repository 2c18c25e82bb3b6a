/**
 * The paper's equal-width bins. For L = 10 the edges are `i*0.1` in IEEE doubles, so
 * 0.3, 0.6 and 0.7 sit just below the edges 0.30000000000000004, 0.6000000000000001 and
 * 0.7000000000000001 and fall into the lower bin, as in the authors' code.
 *
 * For any L the edges are built as `i * (1/L)`: for L = 10, 1/10 is the same double as 0.1,
 * so this is exactly `i*0.1` there; for other L it is the natural generalisation (it is also
 * what numpy's linspace computes). The last edge is forced to 1 so the top bin always ends at 1.
 */
export function equalWidthEdges(bins: number): Float64Array {
  const L = Math.max(1, Math.floor(bins));
  const step = 1 / L;
  const edges = new Float64Array(L + 1);
  for (let i = 0; i <= L; i++) edges[i] = i * step;
  edges[L] = 1;
  return edges;
}

/**
 * bin(c) = number of interior edges ≤ c: bins are [e_k, e_k+1), 1.0 (and anything above)
 * lands in the last bin, anything below 0 in the first. A NaN confidence goes to bin 0, where
 * it makes that bin's mean (and so the ECE) NaN rather than vanishing silently.
 */
export function equalWidthBinOf(c: number, edges: Float64Array): number {
  const interior = edges.length - 2;
  let k = 0;
  while (k < interior && edges[k + 1] <= c) k++;
  return k;
}

/** Bin index of every confidence, for callers that bin once and reuse (the bootstrap). */
export function equalWidthBinIndex(
  conf: ArrayLike<number>,
  edges: Float64Array,
  n = conf.length,
): Uint16Array {
  const out = new Uint16Array(n);
  for (let i = 0; i < n; i++) out[i] = equalWidthBinOf(conf[i], edges);
  return out;
}
