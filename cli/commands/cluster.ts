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
import { DEFAULT_SIMILARITY_THRESHOLD } from '../../src/clustering/agglomerative.ts';
import { clusterRow, readSampledRow } from '../../src/clustering/cluster-rows.ts';
import { createEmbeddingClusterer } from '../../src/clustering/embedding.ts';
import { MemoryEmbeddingCache } from '../../src/model/embedding-cache.ts';
import { DEFAULT_EMBEDDING_MODEL } from '../../src/clustering/embedding-models.ts';
import { createExactClusterer } from '../../src/clustering/exact.ts';
import { createEntailmentClusterer } from '../../src/clustering/entailment.ts';
import { DEFAULT_NLI_MODEL, OFFERED_NLI_MODELS, SHIPPED_NLI_MODELS } from '../../src/clustering/nli-models.ts';
import { createTransformersDecider } from '../../src/clustering/text-pair-classification.ts';
import { entailmentRecords, JsonlEntailmentCache } from '../entailment-cache.ts';
import { createTransformersEmbedder } from '../../src/clustering/feature-extraction.ts';
import { createJudgeClusterer } from '../../src/clustering/judge.ts';
import type { Clusterer } from '../../src/clustering/types.ts';
import { presetIds } from '../../src/providers/index.ts';
import { type Io, resolveIo } from '../command-io.ts';
import { jsonlRows } from '../jsonl-rows.ts';
import { intOption, providerFromArgs } from '../provider-options.ts';
import { EXIT, EXIT_CODES_HELP } from '../exit-codes.ts';
import { withOutputs } from '../output-guard.ts';
import { cachingClusterer, clusteringCache, loadJudgeCache, judgeSpec } from '../judge-cache.ts';
import { countRows, writeStageRows } from '../row-file-stage.ts';
import { StopOnFatal } from '../provider-stop.ts';
import { clusteringSetting } from '../../src/pipeline/runner-report.ts';
import { rowMethodFields } from '../../src/formats/row-methods.ts';

export const USAGE = `usage: semece cluster --method judge|embedding|entailment|exact --in SAMPLED.jsonl --out CLUSTERED.jsonl [options]
  judge:      --provider PRESET --model MODEL [--base-url URL] [--concurrency N] [--retries N]
  embedding:  [--embedding-model ID] (default ${DEFAULT_EMBEDDING_MODEL}) [--threshold T] (default ${DEFAULT_SIMILARITY_THRESHOLD})
              [--model-dir DIR] (default: the repository's public/models) [--allow-remote-models]
  entailment: [--model ID] (default ${DEFAULT_NLI_MODEL}) [--model-dir DIR] (default: the repository's public/models) [--allow-remote-models]
              two answers share a class when the NLI model says each entails the other, the question
              as context; each answer is compared with each class's first member (docs/CLUSTERING.md);
              the model's pair decisions are kept in OUT.cache.jsonl, so a repeated command asks none twice.
              Shipped with the repository (no download): ${SHIPPED_NLI_MODELS.join(', ')}. From the hub (q8):
${OFFERED_NLI_MODELS.filter((m) => m.approxMb > 0).map((m) => `                ${m.id} (about ${m.approxMb} MB)`).join('\n')}
Presets: ${presetIds().join(', ')}.
The judge's key is read from the preset's environment variable (e.g. OPENAI_API_KEY) or SEMECE_API_KEY.
The judge's partitions are cached in OUT.cache.jsonl as they arrive; repeat the same command to
resume without paying twice. A refused key or an exhausted quota stops the judge at once.
${EXIT_CODES_HELP}`;

export default async function run(argv: string[], io: Io = {}): Promise<number> {
  const { out, err, env } = resolveIo(io);
  let a;
  let clusterer: Clusterer;
  let concurrency: number;
  let judge: StopOnFatal | undefined;
  let nli: ReturnType<typeof createTransformersDecider> | undefined;
  let nliPairs = 0;
  // Written into every row (clustering_method, clustering_detail), so a report scored from them says how they were clustered.
  let recorded: Record<string, string>;
  try {
    a = parseArgs({
      args: argv,
      options: {
        method: { type: 'string' }, in: { type: 'string' }, out: { type: 'string' },
        provider: { type: 'string' }, model: { type: 'string' }, 'base-url': { type: 'string' },
        concurrency: { type: 'string' }, retries: { type: 'string' },
        threshold: { type: 'string' }, 'embedding-model': { type: 'string' }, 'model-dir': { type: 'string' },
        'allow-remote-models': { type: 'boolean' }, help: { type: 'boolean' },
      },
      strict: true,
    }).values;
    if (a.help) {
      out(USAGE);
      return EXIT.ok;
    }
    if (!a.in || !a.out) throw new Error('--in and --out are required');
    concurrency = intOption(a.concurrency, 'concurrency', 8, 1);
    if (a.method === 'exact') clusterer = createExactClusterer();
    else if (a.method === 'judge') {
      judge = new StopOnFatal(providerFromArgs(a, env, concurrency));
      clusterer = createJudgeClusterer({ provider: judge, retries: intOption(a.retries, 'retries', 2, 0) });
    }
    else if (a.method === 'embedding') {
      const threshold = a.threshold === undefined ? DEFAULT_SIMILARITY_THRESHOLD : Number(a.threshold);
      if (!Number.isFinite(threshold) || threshold < -1 || threshold > 1) throw new Error(`--threshold must be a cosine similarity in [-1, 1], got ${JSON.stringify(a.threshold)}`);
      const embedder = createTransformersEmbedder({
        model: a['embedding-model'] ?? DEFAULT_EMBEDDING_MODEL,
        localModelPath: modelsFolder(a['model-dir']),
        readFile: readModelFile,
        allowRemoteModels: a['allow-remote-models'] ?? false,
      });
      clusterer = createEmbeddingClusterer({ embedder, threshold, cache: new MemoryEmbeddingCache() });
      concurrency = 1;
    } else if (a.method === 'entailment') {
      nli = createTransformersDecider({
        model: a.model ?? DEFAULT_NLI_MODEL,
        localModelPath: modelsFolder(a['model-dir']),
        readFile: readModelFile,
        allowRemoteModels: a['allow-remote-models'] ?? false,
      });
      // The clusterer itself is built once its cache file is loaded, beside the input (below).
      concurrency = 1;
    } else throw new Error(`--method must be judge, embedding, entailment or exact, got ${JSON.stringify(a.method ?? '')}`);
    recorded = rowMethodFields(
      'clustering',
      a.method === 'judge' ? clusteringSetting({ method: 'judge', judge: judge!.config })
      : a.method === 'embedding' ? clusteringSetting({ method: 'embedding', model: a['embedding-model'] ?? DEFAULT_EMBEDDING_MODEL, threshold: a.threshold === undefined ? DEFAULT_SIMILARITY_THRESHOLD : Number(a.threshold) })
      : a.method === 'entailment' ? clusteringSetting({ method: 'entailment', model: nli!.model })
      : clusteringSetting({ method: 'exact' }),
    );
  } catch (e) {
    err(`semece cluster: ${(e as Error).message}\n${USAGE}`);
    return EXIT.badInput;
  }

  const inFile = a.in;
  const outFile = a.out;
  const files = { outputs: [{ flag: '--out', file: outFile }], inputs: [{ flag: '--in', file: inFile }] };
  return withOutputs('cluster', files, err, async () => {
    // First every row is checked, so a bad line is reported before anything is sent or written.
    const rows = () => jsonlRows(inFile, readSampledRow);
    const total = await countRows('cluster', rows, err);
    if (total === undefined) return EXIT.badInput;

    if (nli) {
      // A model that cannot load fails every question alike: say so once, before writing anything.
      try {
        await nli.ready();
      } catch (e) {
        const remote = a['allow-remote-models'] ? '' : ' (pass --allow-remote-models to fetch a hub model)';
        err(`semece cluster: could not load the NLI model "${nli.model}" from ${modelsFolder(a['model-dir'])}${remote}: ${(e as Error).message}`);
        return EXIT.badInput;
      }
    }

    // The judge's partitions are kept as they arrive, so a repeated command pays for none twice.
    const cachePath = `${outFile}.cache.jsonl`;
    const counts = { cached: 0 };
    if (nli) {
      const records = await loadJudgeCache(entailmentRecords(cachePath), 'NLI decision(s)', 'decided', err);
      clusterer = createEntailmentClusterer({ decider: nli, cache: new JsonlEntailmentCache(records), onDecided: (n) => (nliPairs += n) });
    }
    let stage = clusterer;
    if (judge) {
      const cache = await loadJudgeCache(clusteringCache(cachePath), 'clustering(s)', 'judged', err);
      stage = cachingClusterer(clusterer, { method: 'judge', judge: judgeSpec(judge.config) }, cache, counts);
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
