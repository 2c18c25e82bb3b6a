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
import { CLUSTERING_METHOD_NAMES, CLUSTERING_METHODS, isClusteringMethod, type ClusteringSpec } from '../../src/model/clustering-methods.ts';
import { CLUSTERERS, clusteringFromFlags, createClusterer, type CliFlags, type OwnModelSource } from '../../src/clustering/clusterer-registry.ts';
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
import { clusteringSetting } from '../../src/pipeline/run-settings.ts';
import { rowMethodFields } from '../../src/formats/row-methods.ts';

const METHODS = CLUSTERING_METHOD_NAMES;
const width = Math.max(...METHODS.map((m) => m.length)) + 2;
/** The methods in words: "a, b, c or d". */
const methodsInWords = `${METHODS.slice(0, -1).join(', ')} or ${METHODS[METHODS.length - 1]}`;

/** Every method's own flags (clustering/clusterer-registry.ts), beside the command's. */
const METHOD_FLAGS = Object.fromEntries(Object.values(CLUSTERERS).flatMap((row) => Object.entries(row.cli.flags).map(([flag, type]) => [flag, { type }])));

export const USAGE = `usage: semece cluster --method ${METHODS.join('|')} --in SAMPLED.jsonl --out CLUSTERED.jsonl [options]
${METHODS.map((m) => `  ${`${m}:`.padEnd(width)}${CLUSTERERS[m].cli.help}`).join('\n')}
Presets: ${presetIds().join(', ')}.
The judge's key is read from the preset's environment variable (e.g. OPENAI_API_KEY) or SEMECE_API_KEY.
The judge's partitions are cached in OUT.cache.jsonl as they arrive; repeat the same command to
resume without paying twice. A refused key or an exhausted quota stops the judge at once.
${EXIT_CODES_HELP}`;

const text = (v: string | boolean | undefined): string | undefined => (typeof v === 'string' ? v : undefined);

/** A model the clusterer runs in this process, as the command loads it (a bad one is said once, before anything is written). */
interface OwnModel {
  model: string;
  ready(): Promise<unknown>;
}

export default async function run(argv: string[], io: Io = {}): Promise<number> {
  const { out, err, env } = resolveIo(io);
  let a: CliFlags;
  let spec: ClusteringSpec;
  let retries: number | undefined;
  let concurrency: number;
  let judge: StopOnFatal | undefined;
  // Written into every row (clustering_method, clustering_detail), so a report scored from them says how they were clustered.
  let recorded: Record<string, string>;
  try {
    a = parseArgs({
      args: argv,
      options: {
        method: { type: 'string' }, in: { type: 'string' }, out: { type: 'string' },
        concurrency: { type: 'string' }, help: { type: 'boolean' },
        ...(METHOD_FLAGS as Record<string, { type: 'string' | 'boolean' }>),
      },
      strict: true,
    }).values as CliFlags;
    if (a.help) {
      out(USAGE);
      return EXIT.ok;
    }
    if (!a.in || !a.out) throw new Error('--in and --out are required');
    concurrency = intOption(text(a.concurrency), 'concurrency', 8, 1);
    const method = typeof a.method === 'string' ? a.method : '';
    if (!isClusteringMethod(method)) throw new Error(`--method must be ${methodsInWords}, got ${JSON.stringify(a.method ?? '')}`);
    // The judge's provider flags are read only when the method asks for its judge.
    spec = clusteringFromFlags(method, a, () => judgeSpec((judge = new StopOnFatal(providerFromArgs({ provider: text(a.provider), model: text(a.model), 'base-url': text(a['base-url']) }, env, concurrency))).config));
    if (judge) retries = intOption(text(a.retries), 'retries', 2, 0);
    // A model run in this process takes one question at a time.
    if (CLUSTERING_METHODS[method].ownModel) concurrency = 1;
    recorded = rowMethodFields('clustering', clusteringSetting(spec));
  } catch (e) {
    err(`semece cluster: ${(e as Error).message}\n${USAGE}`);
    return EXIT.badInput;
  }

  const inFile = a.in as string;
  const outFile = a.out as string;
  const files = { outputs: [{ flag: '--out', file: outFile }], inputs: [{ flag: '--in', file: inFile }] };
  return withOutputs('cluster', files, err, async () => {
    // First every row is checked, so a bad line is reported before anything is sent or written.
    const rows = () => jsonlRows(inFile, readSampledRow);
    const total = await countRows('cluster', rows, err);
    if (total === undefined) return EXIT.badInput;

    // The models the clusterer runs itself, read from --model-dir (the hub only when allowed).
    const own: (OwnModel & { role: string })[] = [];
    const source = (s: OwnModelSource) => ({ model: s.model, localModelPath: modelsFolder(text(a['model-dir'])), readFile: readModelFile, allowRemoteModels: s.allowRemote });
    let nliPairs = 0;
    // Its pair decisions are kept in the cache file beside --out; loaded below, once the model is known to load.
    let pairs: EntailmentCache | undefined;
    const clusterer: Clusterer = createClusterer(spec, {
      provider: () => judge!,
      retries,
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
      entailmentCache: { get: (keys) => pairs!.get(keys), put: (entries) => pairs!.put(entries) },
      onDecided: (n) => (nliPairs += n),
    });
    const nli = own.find((m) => m.role === 'NLI');

    // A model that cannot load fails every question alike: say so once, before writing anything.
    for (const m of own) {
      try {
        await m.ready();
      } catch (e) {
        const remote = a['allow-remote-models'] ? '' : ' (pass --allow-remote-models to fetch a hub model)';
        err(`semece cluster: could not load the ${m.role} model "${m.model}" from ${modelsFolder(text(a['model-dir']))}${remote}: ${(e as Error).message}`);
        return EXIT.badInput;
      }
    }

    // The judge's partitions are kept as they arrive, so a repeated command pays for none twice.
    const cachePath = `${outFile}.cache.jsonl`;
    const counts = { cached: 0 };
    if (nli) pairs = new JsonlEntailmentCache(await loadJudgeCache(entailmentRecords(cachePath), 'NLI decision(s)', 'decided', err));
    let stage = clusterer;
    if (judge) {
      const cache = await loadJudgeCache(clusteringCache(cachePath), 'clustering(s)', 'judged', err);
      stage = cachingClusterer(clusterer, spec, cache, counts);
    }

    // Then the rows again, a window at a time, each written as its window finishes.
    const failures: { id: string; reason: string | undefined }[] = [];
    const written = await writeStageRows(
      'cluster',
      rows(),
      outFile,
      { concurrency, judge, total, onDone: (done) => (done % 50 === 0 || done === total) && err(`clustered ${done}/${total}`), kept: { what: 'Clusterings', path: cachePath } },
      (row, signal) => clusterRow(row, stage, signal),
      (r) => {
        if (!r.ok) failures.push({ id: r.row.id, reason: r.row.error });
        return JSON.stringify({ ...r.row, ...recorded });
      },
      err,
    );
    if (!written.ok) return written.exit;
    const { usage, calls } = written.totals;
    out(JSON.stringify({ method: clusterer.method, questions: total, clustered: total - failures.length, failed: failures.length, failures, calls, fromCache: counts.cached, usage, ...(nli ? { nliModel: nli.model, nliPairs } : {}) }, null, 2));
    return failures.length > 0 ? EXIT.partial : EXIT.ok;
  });
}
