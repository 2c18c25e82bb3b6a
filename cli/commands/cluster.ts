/**
 * `semece cluster`: adds the clustering fields of the authors' rows (n_clusters, cluster_labels,
 * cluster_assignments, cluster_sizes, modal_cluster, modal_cluster_label) to sampled rows.
 *
 *   --method judge      an LLM judge (provider options as for `sample`; key from the preset's
 *                       environment variable or SEMECE_API_KEY, never from the command line)
 *   --method embedding  sentence embeddings (Transformers.js on onnxruntime-node) + average-linkage
 *                       clustering at --threshold; models are read from --model-dir, and fetched
 *                       from the Hugging Face hub only with --allow-remote-models
 *   --method entailment an NLI model (Transformers.js text classification on onnxruntime-node):
 *                       two answers share a class when each entails the other, with the question
 *                       as context (clustering/entailment.ts); --model names the NLI model, read
 *                       from --model-dir and fetched from the hub only with --allow-remote-models;
 *                       its pair decisions are kept in OUT.cache.jsonl (cli/entailment-cache.ts)
 *   --method exact      normalized exact match (multiple choice: the chosen option)
 *
 * The judge's partitions are appended to OUT.cache.jsonl as they arrive (cli/judge-cache.ts), keyed
 * like the app's stage cache, so the same command repeated resumes without paying twice; a refused
 * key or an exhausted quota stops every request at once (cli/provider-stop.ts) and writes no --out.
 *
 * A question whose clustering fails is written with n_clusters 0, empty cluster arrays and an
 * `error` field; the scorer excludes and counts it. Exit codes (cli/exit-codes.ts): 0 all
 * clustered, 3 some questions failed (rows written anyway), 1 a provider error stopped the judge,
 * 2 bad usage or input.
 */
import { modelsFolder } from '../models-folder.ts';
import { readModelFile } from '../model-files.ts';
import { parseArgs } from 'node:util';
import { clusterRow, readSampledRow } from '../../src/clustering/cluster-rows.ts';
import { MemoryEmbeddingCache } from '../../src/model/embedding-cache.ts';
import type { EntailmentCache } from '../../src/model/entailment-cache.ts';
import { CLUSTERING_METHODS, clusteringDetail, clusteringMethodNames, type ClusteringMethodName, type ClusteringMethodTable, type ClusteringSpec } from '../../src/model/clustering-methods.ts';
import { CLUSTERERS, clusteringFromFlags, createClusterer, type ClustererTable, type CliFlags, type OwnModelSource } from '../../src/clustering/clusterer-registry.ts';
import { createTransformersDecider } from '../../src/clustering/text-pair-classification.ts';
import { entailmentRecords, JsonlEntailmentCache } from '../entailment-cache.ts';
import { createTransformersEmbedder } from '../../src/clustering/feature-extraction.ts';
import type { Clusterer } from '../../src/clustering/clusterer.ts';
import { presetIds } from '../../src/providers/create-provider.ts';
import { type Io, resolveIo } from '../command-io.ts';
import { jsonlRows } from '../jsonl-rows.ts';
import { intOption, providerFromArgs } from '../provider-options.ts';
import { EXIT, EXIT_CODES_HELP } from '../exit-codes.ts';
import { withOutputs } from '../output-guard.ts';
import { cachingClusterer, clusteringCache, loadJudgeCache, judgeSpec } from '../judge-cache.ts';
import { countRows, writeStageRows } from '../row-file-stage.ts';
import { StopOnFatal } from '../provider-stop.ts';
import { rowMethodFields } from '../../src/formats/row-methods.ts';

/**
 * The clustering methods the command offers: the methods table (model/clustering-methods.ts) and the
 * clusterer registry (clustering/clusterer-registry.ts). The command's --method values, its help,
 * its flags and its refusal of an unknown method all derive from them; a test gives copies with a
 * method of its own.
 */
export interface ClusterMethods {
  methods: ClusteringMethodTable;
  clusterers: ClustererTable;
}

const SHIPPED: ClusterMethods = { methods: CLUSTERING_METHODS, clusterers: CLUSTERERS };

/** The methods in words: "a, b, c or d". */
const inWords = (names: string[]) => `${names.slice(0, -1).join(', ')} or ${names[names.length - 1]}`;

/** Every method's own flags, beside the command's. */
const methodFlags = (m: ClusterMethods) => Object.fromEntries(Object.values(m.clusterers).flatMap((row) => Object.entries(row.cli.flags).map(([flag, type]) => [flag, { type }])));

/** `semece cluster --help`, for the methods of `m`. */
export function clusterUsage(m: ClusterMethods = SHIPPED): string {
  const names = clusteringMethodNames(m.methods);
  const width = Math.max(...names.map((n) => n.length)) + 2;
  return `usage: semece cluster --method ${names.join('|')} --in SAMPLED.jsonl --out CLUSTERED.jsonl [options]
${names.map((n) => `  ${`${n}:`.padEnd(width)}${m.clusterers[n].cli.help}`).join('\n')}
Presets: ${presetIds().join(', ')}.
The judge's key is read from the preset's environment variable (e.g. OPENAI_API_KEY) or SEMECE_API_KEY.
The judge's partitions are cached in OUT.cache.jsonl as they arrive; repeat the same command to
resume without paying twice. A refused key or an exhausted quota stops the judge at once.
${EXIT_CODES_HELP}`;
}

export const USAGE = clusterUsage();

const text = (v: string | boolean | undefined): string | undefined => (typeof v === 'string' ? v : undefined);

/** A model the clusterer runs in this process, as the command loads it (a bad one is said once, before anything is written). */
interface OwnModel {
  model: string;
  ready(): Promise<unknown>;
}

/** The command's settings, as read from its flags. */
interface ClusterArgs {
  a: CliFlags;
  inFile: string;
  outFile: string;
  spec: ClusteringSpec;
  retries: number | undefined;
  concurrency: number;
  judge: StopOnFatal | undefined;
  /** Written into every row (clustering_method, clustering_detail), so a report scored from them says how they were clustered. */
  recorded: Record<string, string>;
}

type Say = (s: string) => void;

/** `methods`: the shipped tables unless a test gives copies with a method of its own. */
export default async function run(argv: string[], io: Io = {}, methods: ClusterMethods = SHIPPED): Promise<number> {
  const { out, err, env } = resolveIo(io);
  const usage = methods === SHIPPED ? USAGE : clusterUsage(methods);
  let args: ClusterArgs | 'help';
  try {
    args = clusterArgs(argv, env, methods);
  } catch (e) {
    err(`semece cluster: ${(e as Error).message}\n${usage}`);
    return EXIT.badInput;
  }
  if (args === 'help') {
    out(usage);
    return EXIT.ok;
  }
  const opts = args;
  const files = { outputs: [{ flag: '--out', file: opts.outFile }], inputs: [{ flag: '--in', file: opts.inFile }] };
  return withOutputs('cluster', files, err, () => clusterCommand(opts, methods, out, err));
}

/** The flags read and checked, the method's settings made from them; throws a usage error's message. */
function clusterArgs(argv: string[], env: NodeJS.ProcessEnv, methods: ClusterMethods): ClusterArgs | 'help' {
  let judge: StopOnFatal | undefined;
  const a = parseArgs({
    args: argv,
    options: {
      method: { type: 'string' }, in: { type: 'string' }, out: { type: 'string' },
      concurrency: { type: 'string' }, help: { type: 'boolean' },
      ...(methodFlags(methods) as Record<string, { type: 'string' | 'boolean' }>),
    },
    strict: true,
  }).values as CliFlags;
  if (a.help) return 'help';
  if (!a.in || !a.out) throw new Error('--in and --out are required');
  let concurrency = intOption(text(a.concurrency), 'concurrency', 8, 1);
  const method = typeof a.method === 'string' ? a.method : '';
  if (!Object.hasOwn(methods.methods, method)) throw new Error(`--method must be ${inWords(clusteringMethodNames(methods.methods))}, got ${JSON.stringify(a.method ?? '')}`);
  // The judge's provider flags are read only when the method asks for its judge.
  const spec = clusteringFromFlags(method as ClusteringMethodName, a, () => judgeSpec((judge = new StopOnFatal(providerFromArgs({ provider: text(a.provider), model: text(a.model), 'base-url': text(a['base-url']) }, env, concurrency))).config), methods.clusterers);
  const retries = judge ? intOption(text(a.retries), 'retries', 2, 0) : undefined;
  // A model run in this process takes one question at a time.
  if (methods.methods[method].ownModel) concurrency = 1;
  const recorded = rowMethodFields('clustering', { method: spec.method, detail: clusteringDetail(spec, methods.methods) });
  return { a, inFile: a.in as string, outFile: a.out as string, spec, retries, concurrency, judge, recorded };
}

/**
 * The command's phases: every row checked, the clusterer made (its own models loaded), its cache
 * file opened, then the rows clustered a window at a time and written, and the summary printed.
 */
async function clusterCommand(opts: ClusterArgs, methods: ClusterMethods, out: Say, err: Say): Promise<number> {
  // First every row is checked, so a bad line is reported before anything is sent or written.
  const rows = () => jsonlRows(opts.inFile, readSampledRow);
  const total = await countRows('cluster', rows, err);
  if (total === undefined) return EXIT.badInput;
  const made = makeClusterer(opts, methods);
  if (!(await ownModelsLoaded(made.own, opts.a, err))) return EXIT.badInput;
  const cachePath = `${opts.outFile}.cache.jsonl`;
  const cached = await cachedClusterer(opts, made, cachePath, err);

  // Then the rows again, a window at a time, each written as its window finishes.
  const failures: { id: string; reason: string | undefined }[] = [];
  const written = await writeStageRows(
    'cluster',
    rows(),
    opts.outFile,
    { concurrency: opts.concurrency, judge: opts.judge, total, onDone: (done) => (done % 50 === 0 || done === total) && err(`clustered ${done}/${total}`), kept: { what: 'Clusterings', path: cachePath } },
    (row, signal) => clusterRow(row, cached.stage, signal),
    (r) => {
      if (!r.ok) failures.push({ id: r.row.id, reason: r.row.error });
      return JSON.stringify({ ...r.row, ...opts.recorded });
    },
    err,
  );
  if (!written.ok) return written.exit;
  const { usage, calls } = written.totals;
  const nli = made.nli();
  out(JSON.stringify({ method: made.clusterer.method, questions: total, clustered: total - failures.length, failed: failures.length, failures, calls, fromCache: cached.counts.cached, usage, ...(nli ? { nliModel: nli.model, nliPairs: made.nliPairs() } : {}) }, null, 2));
  return failures.length > 0 ? EXIT.partial : EXIT.ok;
}

/** The clusterer from the methods' registry, with the models it runs itself read from --model-dir (the hub only when allowed). */
function makeClusterer(opts: ClusterArgs, methods: ClusterMethods) {
  const { a } = opts;
  const own: (OwnModel & { role: string })[] = [];
  const source = (s: OwnModelSource) => ({ model: s.model, localModelPath: modelsFolder(text(a['model-dir'])), readFile: readModelFile, allowRemoteModels: s.allowRemote });
  let nliPairs = 0;
  // The NLI model's pair decisions are kept in the cache file beside --out; set once the model is known to load.
  const pairs: { cache?: EntailmentCache } = {};
  const clusterer: Clusterer = createClusterer(opts.spec, {
    provider: () => opts.judge!,
    retries: opts.retries,
    embedder: (s) => {
      const embedder = createTransformersEmbedder(source(s));
      own.push({ model: embedder.model, ready: embedder.ready, role: 'embedding' });
      return embedder;
    },
    embeddingCache: new MemoryEmbeddingCache(),
    decider: (s) => {
      const decider = createTransformersDecider(source(s));
      own.push({ model: decider.model, ready: decider.ready, role: 'NLI' });
      return decider;
    },
    entailmentCache: { get: (keys) => pairs.cache!.get(keys), put: (entries) => pairs.cache!.put(entries) },
    onDecided: (n) => (nliPairs += n),
  }, methods.clusterers, methods.methods);
  return { clusterer, own, pairs, nli: () => own.find((m) => m.role === 'NLI'), nliPairs: () => nliPairs };
}

/** A model that cannot load fails every question alike: said once, before anything is written. */
async function ownModelsLoaded(own: (OwnModel & { role: string })[], a: CliFlags, err: Say): Promise<boolean> {
  for (const m of own) {
    try {
      await m.ready();
    } catch (e) {
      const remote = a['allow-remote-models'] ? '' : ' (pass --allow-remote-models to fetch a hub model)';
      err(`semece cluster: could not load the ${m.role} model "${m.model}" from ${modelsFolder(text(a['model-dir']))}${remote}: ${(e as Error).message}`);
      return false;
    }
  }
  return true;
}

/** The clusterer over the cache file beside --out: the judge's partitions and the NLI model's pair decisions, kept as they arrive so a repeated command pays for none twice. */
async function cachedClusterer(opts: ClusterArgs, made: ReturnType<typeof makeClusterer>, cachePath: string, err: Say) {
  const counts = { cached: 0 };
  if (made.nli()) made.pairs.cache = new JsonlEntailmentCache(await loadJudgeCache(entailmentRecords(cachePath), 'NLI decision(s)', 'decided', err));
  let stage = made.clusterer;
  if (opts.judge) {
    const cache = await loadJudgeCache(clusteringCache(cachePath), 'clustering(s)', 'judged', err);
    stage = cachingClusterer(made.clusterer, opts.spec, cache, counts);
  }
  return { stage, counts };
}
