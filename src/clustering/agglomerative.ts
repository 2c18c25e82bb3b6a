/**
 * Agglomerative clustering on cosine similarity, on plain vectors (no model import, so it is
 * tested on fixed vectors and benchmarked alone).
 *
 * Linkage: average (UPGMA). Single linkage chains paraphrases into one giant class ("Paris" ~
 * "Paris, France" ~ "France" …); complete linkage splits a class as soon as one outlier
 * paraphrase is far from another. Average linkage sits between and is the usual choice for
 * sentence-embedding clustering. Two clusters merge while their average pairwise similarity is
 * ≥ `threshold`.
 *
 * Items carry weights (how many samples share the text), and a cluster's size is the sum of its
 * weights, so clustering unique texts gives the same linkage values as clustering every sample
 * with its duplicates. Deterministic: of equally similar pairs the one with the lowest
 * (first, second) item indices merges first; input order is the tie-breaker everywhere.
 */

/** Default similarity threshold: paraphrases of one short answer under MiniLM-class models
 * typically score ≥ 0.85 while different entities of one type ("Paris" / "Lyon") score lower. */
export const DEFAULT_SIMILARITY_THRESHOLD = 0.85;

/** Cosine similarity; 0 when either vector is all zeros. */
export function cosineSimilarity(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}

/**
 * Groups of item indices. Each group lists its items ascending; groups are ordered by their
 * first item, which is "numbered by first appearance" when items are in sampling order.
 */
export function agglomerativeAverage(
  vectors: ArrayLike<number>[],
  threshold: number = DEFAULT_SIMILARITY_THRESHOLD,
  weights?: number[],
): number[][] {
  const m = vectors.length;
  if (m === 0) return [];
  const size = weights ? weights.slice() : new Array<number>(m).fill(1);
  // Full similarity matrix; with ≤ a few hundred unique answers per question this is small.
  const sim: Float64Array[] = [];
  for (let i = 0; i < m; i++) {
    sim.push(new Float64Array(m));
    for (let j = 0; j < i; j++) {
      const s = cosineSimilarity(vectors[i], vectors[j]);
      sim[i][j] = s;
      sim[j][i] = s;
    }
  }
  const members: number[][] = Array.from({ length: m }, (_, i) => [i]);
  const alive = new Array<boolean>(m).fill(true);
  for (;;) {
    let best = -Infinity;
    let bi = -1;
    let bj = -1;
    for (let i = 0; i < m; i++) {
      if (!alive[i]) continue;
      for (let j = i + 1; j < m; j++) {
        // Strict '>' keeps the lowest-index pair among equals.
        if (alive[j] && sim[i][j] > best) {
          best = sim[i][j];
          bi = i;
          bj = j;
        }
      }
    }
    if (bi < 0 || !(best >= threshold)) break;
    // Lance–Williams update for average linkage; the merged cluster keeps the lower slot, so
    // its slot index stays its first item.
    const wi = size[bi];
    const wj = size[bj];
    for (let k = 0; k < m; k++) {
      if (!alive[k] || k === bi || k === bj) continue;
      const s = (wi * sim[bi][k] + wj * sim[bj][k]) / (wi + wj);
      sim[bi][k] = s;
      sim[k][bi] = s;
    }
    size[bi] = wi + wj;
    members[bi] = mergeSorted(members[bi], members[bj]);
    alive[bj] = false;
  }
  const groups: number[][] = [];
  for (let i = 0; i < m; i++) if (alive[i]) groups.push(members[i]);
  return groups.sort((a, b) => a[0] - b[0]);
}

function mergeSorted(a: number[], b: number[]): number[] {
  const out: number[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (j >= b.length || (i < a.length && a[i] < b[j])) out.push(a[i++]);
    else out.push(b[j++]);
  }
  return out;
}
