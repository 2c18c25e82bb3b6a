/**
 * `--limit N --seed S` over a hub split's Parquet files without decoding every row: the draw is
 * made over the rows the footers declare, and only the row groups holding the drawn rows are
 * decoded (and of them only the mapped columns).
 *
 * The rule. The R rows of the split (its files in order) are put in the order
 * `defaultRng(seed).permutation(R)` and walked in that order; a row is taken when its category
 * still has room (stratified) or fewer than N are taken (plain), and it becomes a question. A row
 * that does not (an empty question or answer, a skip-if-present column, or an id already taken)
 * is passed over and the walk goes on, so the draw stays N questions. Stratified, the category
 * column alone is decoded for every row, and the quotas are those of formats/datasets/subset.ts
 * over all R rows. The chosen questions are asked in file order; the subset records `of: R`.
 *
 * When every row is a question, this is exactly what drawSubset gives on the whole split (the
 * same permutation of the same count, the same quotas, the same walk). With rows that are not,
 * the permutation is over the rows rather than the questions, so the draw for a seed can differ
 * from a full read's; and a repeated id keeps the first row drawn rather than the first in the
 * file. When the walk runs out before N (fewer questions than N among the rows, or a category
 * whose rows are mostly not questions), or the split is not all Parquet, the caller reads the
 * whole split and draws as before.
 */
import { rowCategory, rowQuestion, type RoleColumns, type SkippedRow } from '../formats/datasets';
import { openParquet, parquetBoundProblem, parquetGroupRows, type OpenedParquet } from '../formats/datasets/parquet';
import { stratumQuotas, type SubsetChoice } from '../formats/datasets/subset';
import { defaultRng } from '../core/rng';
import type { TableRow } from '../formats/datasets/table';
import type { Question, QuestionSubset, Result } from '../model/rows';

export interface DrawInput {
  /** The split's files, in order (all Parquet). */
  files: { path: string; bytes: Uint8Array }[];
  cols: RoleColumns;
  /** Top-level columns to decode for a question (the mapping's). */
  columns: readonly string[];
  keep: readonly string[];
  choice: SubsetChoice;
  /** Each column chunk the Parquet reader decoded: file, row group, column. */
  onDecoded?: (file: string, group: number, column: string) => void;
}

export interface Drawn {
  questions: Question[];
  skipped: SkippedRow[];
  subset: QuestionSubset;
}

interface Shard {
  p: OpenedParquet;
  /** Rows of the split's earlier files. */
  offset: number;
  columns: string[];
  decoded: Set<number>;
}

/** The shard and row group holding split row `i`. */
function locate(shards: Shard[], i: number): { shard: Shard; group: number } {
  let s = shards.length - 1;
  while (shards[s].offset > i) s--;
  const shard = shards[s];
  const local = i - shard.offset;
  let lo = 0;
  let hi = shard.p.groupStarts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (shard.p.groupStarts[mid] <= local) lo = mid;
    else hi = mid - 1;
  }
  return { shard, group: lo };
}

/**
 * The drawn questions, an error that refuses the split, or undefined when this draw cannot stand
 * for the whole read (see the module comment): the caller then reads every row.
 */
export async function drawParquetQuestions(input: DrawInput): Promise<Result<Drawn> | undefined> {
  const { cols, choice } = input;
  const n = Math.max(0, Math.floor(choice.n));
  const shards: Shard[] = [];
  let total = 0;
  for (const f of input.files) {
    const opened = openParquet(f.bytes, f.path);
    if (!opened.ok) return opened;
    const p = opened.value;
    const problem = parquetBoundProblem(p.metadata, f.path, total, { rowsOnly: true });
    if (problem) return { ok: false, error: { kind: 'dataset', message: problem, where: f.path } };
    // A footer whose count disagrees with its row groups: the full read decides what it holds.
    if (BigInt(p.rows) !== p.metadata.num_rows) return undefined;
    const columns = p.columns.filter((c) => input.columns.includes(c));
    if (columns.length === 0) return undefined;
    shards.push({ p, offset: total, columns, decoded: new Set() });
    total += p.rows;
  }
  if (n >= total) return undefined;

  // Strata: the category of every row, read from its column alone.
  let strata: string[] | undefined;
  if (choice.stratify && cols.category) {
    const top = cols.category.split('.')[0];
    strata = [];
    for (const s of shards) {
      if (!s.p.columns.includes(top)) return undefined;
      const problem = parquetBoundProblem(s.p.metadata, s.p.name, s.offset, { columns: new Set([top]) });
      if (problem) return { ok: false, error: { kind: 'dataset', message: problem, where: s.p.name } };
      for (let g = 0; g < s.p.groupStarts.length; g++) {
        const rows = await parquetGroupRows(s.p, g, [top], s.offset, (column) => input.onDecoded?.(s.p.name, g, column));
        if (!rows.ok) return rows;
        for (const r of rows.value) strata.push(rowCategory(r, cols));
      }
    }
    if (strata.length !== total || new Set(strata).size < 2) strata = undefined;
  }
  const stratumOf = (i: number) => (strata ? strata[i] : '');
  const left = new Map<string, number>();
  if (strata) {
    const sizes = new Map<string, number>();
    for (const s of strata) sizes.set(s, (sizes.get(s) ?? 0) + 1);
    for (const [k, q] of stratumQuotas(sizes, n)) left.set(k, q);
  } else left.set('', n);

  const order = defaultRng(choice.seed).permutation(total);
  const rows = new Map<number, TableRow>();
  const decode = async (from: number): Promise<Result<void>> => {
    // The rows the walk would take from here if each is a question: their row groups, read at once.
    const room = new Map(left);
    let wanted = [...room.values()].reduce((a, b) => a + b, 0);
    const groups = new Map<Shard, Set<number>>();
    for (let k = from; k < total && wanted > 0; k++) {
      const i = order[k];
      const r = room.get(stratumOf(i)) ?? 0;
      if (r === 0) continue;
      room.set(stratumOf(i), r - 1);
      wanted--;
      if (rows.has(i)) continue;
      const { shard, group } = locate(shards, i);
      if (!shard.decoded.has(group)) (groups.get(shard) ?? groups.set(shard, new Set()).get(shard)!).add(group);
    }
    for (const [shard, add] of groups) {
      const all = new Set([...shard.decoded, ...add]);
      const problem = parquetBoundProblem(shard.p.metadata, shard.p.name, shard.offset, { columns: new Set(shard.columns), groups: all });
      if (problem) return { ok: false, error: { kind: 'dataset', message: problem, where: shard.p.name } };
      for (const g of [...add].sort((a, b) => a - b)) {
        const read = await parquetGroupRows(shard.p, g, shard.columns, shard.offset, (column) => input.onDecoded?.(shard.p.name, g, column));
        if (!read.ok) return read;
        for (const r of read.value) rows.set(r.row - 1, r);
        shard.decoded.add(g);
      }
    }
    return { ok: true, value: undefined };
  };

  const taken: { i: number; q: Question }[] = [];
  const ids = new Set<string>();
  const skipped: SkippedRow[] = [];
  let need = n;
  for (let k = 0; k < total && need > 0; k++) {
    const i = order[k];
    const room = left.get(stratumOf(i)) ?? 0;
    if (room === 0) continue;
    if (!rows.has(i)) {
      const read = await decode(k);
      if (!read.ok) return read;
    }
    const one = rowQuestion(rows.get(i)!, cols, input.keep);
    if ('error' in one) return { ok: false, error: one.error };
    if ('skip' in one) {
      skipped.push(one.skip);
      continue;
    }
    if (ids.has(one.question.id)) {
      skipped.push({ where: rows.get(i)!.where, reason: `repeats id ${one.question.id} (the row drawn first with it is kept)` });
      continue;
    }
    ids.add(one.question.id);
    taken.push({ i, q: one.question });
    left.set(stratumOf(i), room - 1);
    need--;
  }
  if (need > 0) return undefined;
  taken.sort((a, b) => a.i - b.i);
  const questions = taken.map((t) => t.q);
  const subset: QuestionSubset = { of: total, seed: choice.seed, ids: questions.map((q) => q.id) };
  if (strata) subset.stratifiedBy = 'category';
  return { ok: true, value: { questions, skipped, subset } };
}
