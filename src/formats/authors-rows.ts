/**
 * Reader of the authors' row format (SEMECE.md, last section): a clustered JSONL file and a
 * graded JSONL file, joined on id.
 *
 * Rules:
 * - First row per id wins in each file; later rows with the same id are counted and reported
 *   (file, line, id), never used.
 * - A question is excluded, with its reason, when its grade is unknown (no graded row, or
 *   Y null because grading failed) or its clustering failed. Clustering failure in the authors'
 *   files: `cluster_assignments` null, or `n_clusters` 0 or null, or a non-empty
 *   `cluster_error` / `clustering_error` / `error` field. Graded rows with no clustered row are
 *   reported too.
 * - Anything else malformed stops the read with a StageError naming the file, the line and
 *   what is wrong: bad JSON, not an object, missing field, wrong type, an assignment outside
 *   0..K−1, cluster_sizes that disagree with the assignments, no samples, an array whose
 *   length disagrees with n_samples or n_clusters, a modal_cluster that is not the first
 *   largest class, Y not 0/1/null. Blank lines are allowed (and skipped); nothing else is.
 */
import { ANSWER_SIMILARITY_SOURCES, type AnswerSimilarity, type ClusteredRow, type Result } from '../model/rows';
import {
  FieldError,
  arr,
  confidences,
  describe,
  id,
  indices,
  int,
  optionalStr,
  selectionSamples,
  str,
  strings,
  type Obj,
} from './authors-fields';
import { adaptiveModalClass } from '../core/adaptive-sem2';
import { keptFields, type QuestionFields } from '../model/question-fields';
import { parseJsonl, type DuplicateRow, type JsonlText, type ParsedFile } from './jsonl-rows';
import { commonMethod, readRowMethod, type ClusteringMethod, type GradingMethod } from './row-methods';

/** A graded row as the authors write it: `grade` may be any label (e.g. PARSE_ERROR) when Y is null. */
export interface AuthorsGradedRow {
  id: string;
  model?: string;
  question?: string;
  gold_answer?: string;
  modal_cluster_label?: string;
  grade: string | null;
  Y: 0 | 1 | null;
  /** How `semece grade` graded it (grading_method, grading_detail); absent in the authors' rows. */
  method?: GradingMethod;
}

export type { DuplicateRow, Located, ParsedFile } from './jsonl-rows';

/** A clustered row whose clustering may have failed (then the cluster fields are not checked). */
export type ClusteredEntry =
  | { ok: true; row: ClusteredRow; method?: ClusteringMethod; fields?: QuestionFields }
  | { ok: false; id: string; reason: string };

export interface JoinedQuestion {
  clustered: ClusteredRow;
  /** How `semece cluster` clustered it (clustering_method, clustering_detail); absent in the authors' rows. */
  clusteringMethod?: ClusteringMethod;
  /** Other short top-level fields of the clustered row (category, popularity …), model/question-fields.ts. */
  fields?: QuestionFields;
  graded: AuthorsGradedRow & { Y: 0 | 1 };
  clusteredLine: number;
  gradedLine: number;
}

export interface AuthorsRows {
  questions: JoinedQuestion[];
  excluded: { id: string; reason: string }[];
  duplicates: DuplicateRow[];
  /** Ids of graded rows (first per id) with no clustered row. */
  unmatchedGraded: string[];
  /** The methods every scored question's rows record ('imported' when some do not, row-methods.ts). */
  methods?: { clustering: ClusteringMethod | { method: 'imported'; detail?: string }; grading: GradingMethod | { method: 'imported'; detail?: string } };
}

/** A list for an error message: whole when short, its first entries and its length when long (300,000 classes). */
function shortList(values: readonly unknown[], shown = 20): string {
  if (values.length <= shown) return JSON.stringify(values);
  return `${JSON.stringify(values.slice(0, shown)).slice(0, -1)},… (${values.length} in all)]`;
}

function clusteringFailure(obj: Obj): string | null {
  for (const key of ['cluster_error', 'clustering_error', 'error']) {
    const v = obj[key];
    if (v !== undefined && v !== null && v !== '' && v !== false) {
      return `clustering failed (${key}: ${typeof v === 'string' ? v : JSON.stringify(v)})`;
    }
  }
  if (obj.cluster_assignments === null) return 'clustering failed (cluster_assignments is null)';
  if (obj.n_clusters === null || obj.n_clusters === 0) return 'clustering failed (no clusters)';
  return null;
}

/** One clustered row, checked for internal consistency. */
export interface ReadOptions {
  /**
   * Check the raw replies (`results`) but do not keep them: the row's `results` is then []. For
   * scoring alone (the CLI without --report), where the replies are the bulk of the file and
   * keeping them only costs memory and garbage collection. Default false.
   */
  dropReplies?: boolean;
  /** The same for the extracted answers (`answer_extracted` is then []), when no report shows them. */
  dropAnswers?: boolean;
}

/** The clustered row's own fields (and the failure and method fields), never kept as dataset columns. */
const CLUSTERED_ROW_KEYS: ReadonlySet<string> = new Set([
  'id', 'question', 'gold_answer', 'gold_answer_aliases', 'model', 'n_samples', 'results', 'answer_extracted',
  'confidence_verbalized', 'n_clusters', 'cluster_labels', 'cluster_assignments', 'cluster_sizes', 'modal_cluster',
  'modal_cluster_label', 'selection_samples', 'clustering_method', 'clustering_detail', 'grading_method', 'grading_detail',
  'cluster_error', 'clustering_error', 'error', 'grade', 'Y', 'p_true', 'sequence_logprobs', 'answer_similarity',
]);
// p_true_method is left a question field on purpose: the report states per question how p(True) was read.

export function readClusteredRow(obj: Obj, options: ReadOptions = {}): ClusteredEntry & { id: string } {
  const rowId = id(obj);
  const failure = clusteringFailure(obj);
  if (failure) return { ok: false, id: rowId, reason: failure };
  const n = int(obj, 'n_samples', 0);
  if (n === 0) throw new FieldError('no samples (n_samples = 0)');
  const K = int(obj, 'n_clusters', 1);
  const assignments = indices(obj, 'cluster_assignments', n, 'n_samples', K, 'n_clusters');
  const sizes = arr(obj, 'cluster_sizes', K, 'n_clusters');
  const counted = new Array<number>(K).fill(0);
  for (const a of assignments) counted[a]++;
  for (let k = 0; k < K; k++) {
    if (sizes[k] !== counted[k]) {
      throw new FieldError(
        `"cluster_sizes" ${shortList(sizes)} disagrees with "cluster_assignments" (counts ${shortList(counted)})`,
      );
    }
  }
  const modal = int(obj, 'modal_cluster', 0);
  // A loop, not Math.max(...counted): spreading 300,000 class sizes as arguments overflows the stack.
  let firstLargest = 0;
  for (let k = 1; k < K; k++) if (counted[k] > counted[firstLargest]) firstLargest = k;
  // An adaptive row's deployed answer is its selection block's most common class (clustering/row-fields.ts).
  const selection = obj.selection_samples !== undefined ? selectionSamples(obj, n) : undefined;
  if (selection !== undefined) {
    const z = adaptiveModalClass(assignments, selection);
    if (modal !== z) throw new FieldError(`"modal_cluster" = ${modal} but the most common class of the ${selection} selection samples is ${z}`);
  } else if (modal !== firstLargest) {
    throw new FieldError(`"modal_cluster" = ${modal} but the first largest class is ${firstLargest} (sizes ${shortList(counted)})`);
  }
  const row: ClusteredRow = {
    id: rowId,
    question: str(obj, 'question'),
    gold_answer: str(obj, 'gold_answer'),
    model: str(obj, 'model'),
    n_samples: n,
    results: options.dropReplies
      ? (strings(obj, 'results', n, 'n_samples', { nullable: true }), [])
      : (strings(obj, 'results', n, 'n_samples', { nullable: true }) as string[]),
    answer_extracted: options.dropAnswers
      ? (strings(obj, 'answer_extracted', n, 'n_samples', { nullable: true }), [])
      : (strings(obj, 'answer_extracted', n, 'n_samples', { nullable: true }) as string[]),
    confidence_verbalized: confidences(obj, 'confidence_verbalized', n, 'n_samples'),
    n_clusters: K,
    cluster_labels: strings(obj, 'cluster_labels', K, 'n_clusters') as string[],
    cluster_assignments: assignments,
    cluster_sizes: counted,
    modal_cluster: modal,
    modal_cluster_label: str(obj, 'modal_cluster_label'),
  };
  // Optional keys set only when present (a spread of an empty object per row costs a runtime call).
  if (selection !== undefined) row.selection_samples = selection;
  if (obj.p_true !== undefined) row.p_true = optionalProbability(obj, 'p_true');
  if (obj.sequence_logprobs !== undefined) row.sequence_logprobs = logprobList(obj, 'sequence_logprobs', n);
  if (obj.answer_similarity !== undefined) row.answer_similarity = answerSimilarity(obj.answer_similarity, n);
  const entry: { ok: true; id: string; row: ClusteredRow; method?: ClusteringMethod; fields?: QuestionFields } = { ok: true, id: rowId, row };
  const method = readRowMethod(obj, 'clustering');
  if (method) entry.method = method;
  const fields = keptFields(obj, CLUSTERED_ROW_KEYS);
  if (fields) entry.fields = fields;
  return entry;
}

/** p(True): a number in [0, 1], or null (asked, no verdict read). */
function optionalProbability(obj: Obj, key: string): number | null {
  const v = obj[key];
  if (v === null) return null;
  if (typeof v !== 'number' || !Number.isFinite(v) || v < 0 || v > 1) throw new FieldError(`"${key}" must be a number in [0, 1] or null, got ${describe(v)}`);
  return v;
}

/** The clustering's answer similarity (model/rows.ts AnswerSimilarity): a group per sample, every group used, g×g values in [0, 1]. */
function answerSimilarity(v: unknown, n: number): AnswerSimilarity {
  const bad = (what: string) => new FieldError(`"answer_similarity" ${what}`);
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw bad(`must be an object, got ${describe(v)}`);
  const { source, groups, matrix } = v as Record<string, unknown>;
  if (!(ANSWER_SIMILARITY_SOURCES as readonly unknown[]).includes(source)) throw bad(`has an unknown source ${describe(source)}`);
  if (!Array.isArray(groups) || groups.length !== n) throw bad(`needs one group per sample (${n})`);
  let g = 0;
  for (const x of groups) {
    if (!Number.isInteger(x) || (x as number) < 0) throw bad(`groups must be whole numbers ≥ 0, got ${describe(x)}`);
    g = Math.max(g, (x as number) + 1);
  }
  const used = new Set(groups);
  if (used.size !== g) throw bad(`leaves a group without samples (groups 0 … ${g - 1})`);
  if (!Array.isArray(matrix) || matrix.length !== g * g) throw bad(`needs a ${g}×${g} matrix (${g * g} values)`);
  for (const x of matrix) if (typeof x !== 'number' || !Number.isFinite(x) || x < 0 || x > 1) throw bad(`values must lie in [0, 1], got ${describe(x)}`);
  return { source: source as AnswerSimilarity['source'], groups: groups as number[], matrix: matrix as number[] };
}

/** One finite log-probability (≤ 0) per sample. */
function logprobList(obj: Obj, key: string, n: number): number[] {
  const v = arr(obj, key, n, 'n_samples');
  for (let i = 0; i < v.length; i++) {
    const x = v[i];
    if (typeof x !== 'number' || !Number.isFinite(x) || x > 0) throw new FieldError(`"${key}"[${i}] must be a log-probability (a finite number ≤ 0), got ${describe(x)}`);
  }
  return v as number[];
}

export function readGradedRow(obj: Obj): AuthorsGradedRow {
  const rowId = id(obj);
  if (!('Y' in obj)) throw new FieldError('missing field "Y"');
  const Y = obj.Y;
  if (Y !== 0 && Y !== 1 && Y !== null) throw new FieldError(`"Y" must be 0, 1 or null, got ${describe(Y)}`);
  if (!('grade' in obj)) throw new FieldError('missing field "grade"');
  if (obj.grade !== null && typeof obj.grade !== 'string') {
    throw new FieldError(`"grade" must be a string or null, got ${describe(obj.grade)}`);
  }
  const method = readRowMethod(obj, 'grading');
  const row: AuthorsGradedRow = {
    id: rowId,
    model: optionalStr(obj, 'model'),
    question: optionalStr(obj, 'question'),
    gold_answer: optionalStr(obj, 'gold_answer'),
    modal_cluster_label: optionalStr(obj, 'modal_cluster_label'),
    grade: obj.grade as string | null,
    Y,
  };
  if (method) row.method = method;
  return row;
}

export function parseClusteredJsonl(text: JsonlText, file: string, options: ReadOptions = {}) {
  return parseJsonl(text, file, (obj) => readClusteredRow(obj, options));
}

export function parseGradedJsonl(text: JsonlText, file: string) {
  return parseJsonl(text, file, readGradedRow);
}

/** Joins the two files on id (first row per id in each), counting every exclusion. */
export function joinAuthorsRows(
  clustered: ParsedFile<ClusteredEntry & { id: string }>,
  graded: ParsedFile<AuthorsGradedRow>,
): AuthorsRows {
  const grades = new Map(graded.rows.map((g) => [g.row.id, g]));
  const questions: JoinedQuestion[] = [];
  const excluded: { id: string; reason: string }[] = [];
  const seen = new Set<string>();
  for (const { row: entry, line } of clustered.rows) {
    seen.add(entry.id);
    const g = grades.get(entry.id);
    if (!entry.ok) {
      excluded.push({ id: entry.id, reason: entry.reason });
    } else if (!g) {
      excluded.push({ id: entry.id, reason: `no graded row in ${graded.file}` });
    } else if (g.row.Y === null) {
      excluded.push({ id: entry.id, reason: `grading failed (grade: ${g.row.grade ?? 'null'}, Y null)` });
    } else {
      const graded = g.row as AuthorsGradedRow & { Y: 0 | 1 };
      // The common row (no method, no kept fields) as a plain literal; the keys keep one order either way.
      questions.push(
        entry.method || entry.fields
          ? {
              clustered: entry.row,
              ...(entry.method ? { clusteringMethod: entry.method } : {}),
              ...(entry.fields ? { fields: entry.fields } : {}),
              graded,
              clusteredLine: line,
              gradedLine: g.line,
            }
          : { clustered: entry.row, graded, clusteredLine: line, gradedLine: g.line },
      );
    }
  }
  return {
    questions,
    excluded,
    duplicates: [...clustered.duplicates, ...graded.duplicates],
    unmatchedGraded: graded.rows.filter((g) => !seen.has(g.row.id)).map((g) => g.row.id),
    methods: {
      clustering: commonMethod(questions.map((q) => q.clusteringMethod)),
      grading: commonMethod(questions.map((q) => q.graded.method)),
    },
  };
}

/** Parses and joins a clustered and a graded file given as text (or chunks of text, formats/jsonl-rows.ts). */
export function readAuthorsRows(
  clustered: { text: JsonlText; file: string },
  graded: { text: JsonlText; file: string },
  options: ReadOptions = {},
): Result<AuthorsRows> {
  const c = parseClusteredJsonl(clustered.text, clustered.file, options);
  if (!c.ok) return c;
  const g = parseGradedJsonl(graded.text, graded.file);
  if (!g.ok) return g;
  return { ok: true, value: joinAuthorsRows(c.value, g.value) };
}
