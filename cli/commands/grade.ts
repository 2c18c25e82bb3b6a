/**
 * `semece grade`: the authors' graded rows (id, model, question, gold_answer,
 * modal_cluster_label, grade, Y) from clustered rows. Gold answers and aliases
 * (`gold_answer_aliases`) travel in the rows; multiple-choice `options` too.
 *
 *   --method alias   normalized exact match against every alias plus the containment rule
 *                    documented in src/grading/alias.ts (no model)
 *   --method judge   an LLM judge (provider options as for `sample`)
 *
 * The judge's verdicts are appended to OUT.cache.jsonl as they arrive (cli/judge-cache.ts), keyed
 * like the app's stage cache, so the same command repeated resumes without paying twice; a refused
 * key or an exhausted quota stops every request at once (cli/provider-stop.ts) and writes no --out.
 *
 * Rows whose clustering failed (an `error` field or n_clusters 0) and rows whose grading fails
 * get grade null and Y null with an `error` field; the scorer excludes and counts them.
 * Exit codes (cli/exit-codes.ts): 0 all graded, 3 some rows not graded (rows written anyway),
 * 1 a provider error stopped the judge, 2 bad usage or input.
 */
import { parseArgs } from 'node:util';
import type { Obj } from '../../src/formats/authors-fields.ts';
import { gradingSetting } from '../../src/pipeline/run-settings.ts';
import { rowMethodFields } from '../../src/formats/row-methods.ts';
import { readClusteredRow } from '../../src/formats/authors-rows.ts';
import { gradeRow, type ClusteredRowIn } from '../../src/grading/graded-rows.ts';
import { createGrader } from '../../src/grading/grader-registry.ts';
import type { GradingSpec } from '../../src/model/run-spec.ts';
import type { Grader } from '../../src/grading/grader.ts';
import { type Io, resolveIo } from '../command-io.ts';
import { jsonlRows } from '../jsonl-rows.ts';
import { intOption, providerFromArgs } from '../provider-options.ts';
import { EXIT, EXIT_CODES_HELP } from '../exit-codes.ts';
import { withOutputs } from '../output-guard.ts';
import { cachingGrader, gradeCache, loadJudgeCache, judgeSpec } from '../judge-cache.ts';
import { countRows, writeStageRows } from '../row-file-stage.ts';
import { StopOnFatal } from '../provider-stop.ts';

export const USAGE = `usage: semece grade --method judge|alias --in CLUSTERED.jsonl --out GRADED.jsonl [options]
  judge:  --provider PRESET --model MODEL [--base-url URL] [--concurrency N] [--retries N]
The judge's key is read from the preset's environment variable (e.g. OPENAI_API_KEY) or SEMECE_API_KEY.
The judge's verdicts are cached in OUT.cache.jsonl as they arrive; repeat the same command to
resume without paying twice. A refused key or an exhausted quota stops the judge at once.
${EXIT_CODES_HELP}`;

const optionalStrings = (v: unknown): string[] | undefined => (Array.isArray(v) && v.every((x) => typeof x === 'string') ? (v as string[]) : undefined);

/** A clustered row as grading takes it; a row the scorer would exclude is kept, marked ungradable (a FieldError is bad input). */
function gradingRow(obj: Obj): ClusteredRowIn {
  const entry = readClusteredRow(obj);
  const extras = { gold_answer_aliases: optionalStrings(obj.gold_answer_aliases), options: optionalStrings(obj.options) };
  if (entry.ok) return { ...entry.row, ...extras };
  return { ...(obj as unknown as ClusteredRowIn), id: entry.id, n_clusters: 0, modal_cluster_label: '', error: entry.reason };
}

/** The command's settings, as read from its flags. */
interface GradeArgs {
  inFile: string;
  outFile: string;
  spec: GradingSpec;
  grader: Grader;
  concurrency: number;
  judge: StopOnFatal | undefined;
  /** Written into every row (grading_method, grading_detail), so a report scored from them says how they were graded. */
  recorded: Record<string, string>;
}

type Say = (s: string) => void;

export default async function run(argv: string[], io: Io = {}): Promise<number> {
  const { out, err, env } = resolveIo(io);
  let args: GradeArgs | 'help';
  try {
    args = gradeArgs(argv, env);
  } catch (e) {
    err(`semece grade: ${(e as Error).message}\n${USAGE}`);
    return EXIT.badInput;
  }
  if (args === 'help') {
    out(USAGE);
    return EXIT.ok;
  }
  const opts = args;
  const files = { outputs: [{ flag: '--out', file: opts.outFile }], inputs: [{ flag: '--in', file: opts.inFile }] };
  return withOutputs('grade', files, err, () => gradeCommand(opts, out, err));
}

/** The flags read and checked, the grader made from them; throws a usage error's message. */
function gradeArgs(argv: string[], env: NodeJS.ProcessEnv): GradeArgs | 'help' {
  const a = parseArgs({
    args: argv,
    options: {
      method: { type: 'string' }, in: { type: 'string' }, out: { type: 'string' },
      provider: { type: 'string' }, model: { type: 'string' }, 'base-url': { type: 'string' },
      concurrency: { type: 'string' }, retries: { type: 'string' }, help: { type: 'boolean' },
    },
    strict: true,
  }).values;
  if (a.help) return 'help';
  if (!a.in || !a.out) throw new Error('--in and --out are required');
  const concurrency = intOption(a.concurrency, 'concurrency', 8, 1);
  let spec: GradingSpec;
  let judge: StopOnFatal | undefined;
  if (a.method === 'alias') spec = { method: 'alias' };
  else if (a.method === 'judge') {
    judge = new StopOnFatal(providerFromArgs(a, env, concurrency));
    spec = { method: 'judge', judge: judgeSpec(judge.config) };
  }
  else throw new Error(`--method must be judge or alias, got ${JSON.stringify(a.method ?? '')}`);
  const retries = judge ? intOption(a.retries, 'retries', 1, 0) : undefined;
  const grader = createGrader(spec, { provider: () => judge!, retries });
  return { inFile: a.in, outFile: a.out, spec, grader, concurrency, judge, recorded: rowMethodFields('grading', gradingSetting(spec)) };
}

/** The command's phases: every row checked, the judge's cache file opened, then the rows graded a window at a time and written, and the summary printed. */
async function gradeCommand(opts: GradeArgs, out: Say, err: Say): Promise<number> {
  // Each row is checked by the score reader's own rules, so what grades here also scores; every
  // row first, so a bad line is reported before anything is sent or written.
  const rows = () => jsonlRows(opts.inFile, gradingRow);
  const total = await countRows('grade', rows, err);
  if (total === undefined) return EXIT.badInput;
  const cachePath = `${opts.outFile}.cache.jsonl`;
  const cached = await cachedGrader(opts, cachePath, err);

  // Then the rows again, a window at a time, each written as its window finishes.
  const counts = { CORRECT: 0, INCORRECT: 0, NOT_ATTEMPTED: 0, ungraded: 0 };
  const ungraded: { id: string; reason: string | undefined }[] = [];
  const written = await writeStageRows(
    'grade',
    rows(),
    opts.outFile,
    { concurrency: opts.concurrency, judge: opts.judge, total, kept: { what: 'Grades', path: cachePath } },
    (row, signal) => gradeRow(row, cached.stage, signal),
    ({ row }) => {
      counts[row.grade ?? 'ungraded']++;
      if (row.grade === null) ungraded.push({ id: row.id, reason: row.error });
      return JSON.stringify({ ...row, ...opts.recorded });
    },
    err,
  );
  if (!written.ok) return written.exit;
  out(JSON.stringify({ method: opts.grader.method, questions: total, ...counts, ungradedRows: ungraded, fromCache: cached.counts.cached, usage: written.totals.usage }, null, 2));
  return ungraded.length > 0 ? EXIT.partial : EXIT.ok;
}

/** The grader over the cache file beside --out: the judge's verdicts, kept as they arrive so a repeated command pays for none twice. */
async function cachedGrader(opts: GradeArgs, cachePath: string, err: Say) {
  const counts = { cached: 0 };
  let stage = opts.grader;
  if (opts.judge) {
    const cache = await loadJudgeCache(gradeCache(cachePath), 'grade(s)', 'graded', err);
    stage = cachingGrader(opts.grader, opts.spec, cache, counts);
  }
  return { stage, counts };
}
