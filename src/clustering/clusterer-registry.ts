/**
 * The clustering registry: for each method of the table (model/clustering-methods.ts), how its
 * clusterer is built from its settings and what the run or command hands it (`ClustererDeps`), what
 * of its settings the stage cache key holds, and how the CLI reads its settings from flags. The
 * worker (workers/real-stages.ts) and `semece cluster` build every clusterer here; the stage cache
 * key (pipeline/stage-cache-keys.ts) takes each method's identity from here. TypeScript holds the
 * registry to the table: a method without a row here does not compile.
 */
import { CLUSTERING_METHODS, ENTAILMENT_SIMILARITY, type ClusteringMethodName, type ClusteringMethodTable, type ClusteringSettings, type ClusteringSpec } from '../model/clustering-methods';
import type { EmbeddingCache } from '../model/embedding-cache';
import type { EntailmentCache } from '../model/entailment-cache';
import type { ChatProvider } from '../model/provider';
import type { ModelSpec } from '../model/run-spec';
import { DEFAULT_SIMILARITY_THRESHOLD } from './agglomerative';
import { createEmbeddingClusterer, type Embedder } from './embedding';
import { DEFAULT_EMBEDDING_MODEL } from './embedding-models';
import { createEntailmentClusterer, ENTAILMENT_RULE_VERSION, type EntailmentDecider } from './entailment';
import { createExactClusterer } from './exact';
import { createJudgeClusterer } from './judge-clusterer';
import { JUDGE_PROMPT_VERSION } from './cluster-judge-prompt';
import { DEFAULT_NLI_MODEL, OFFERED_NLI_MODELS, SHIPPED_NLI_MODELS } from './nli-models';
import type { Clusterer } from './clusterer';

/** A model the clusterer runs itself, as the run or command sets it. */
export interface OwnModelSource {
  model: string;
  allowRemote: boolean;
}

/** What a clusterer may need from whoever runs it; a method that needs what is not given cannot run there. */
export interface ClustererDeps {
  /** The judge's provider (the worker: with the run's key; the CLI: from its flags). */
  provider?(model: ModelSpec): ChatProvider;
  /** Judge attempts after the first (the judge's default when unset). */
  retries?: number;
  embedder?(source: OwnModelSource): Embedder;
  embeddingCache?: EmbeddingCache;
  decider?(source: OwnModelSource): EntailmentDecider;
  entailmentCache?: EntailmentCache;
  /** Pairs the NLI model was asked (not found in the cache). */
  onDecided?(pairs: number): void;
}

/** The CLI's parsed flags (node:util parseArgs values). */
export type CliFlags = Record<string, string | boolean | undefined>;

/** A method's row; `Spec` is its ClusteringSpec (the method and its settings). */
export interface ClustererRow<Spec extends { method: string } = { method: string }> {
  /**
   * What of the settings a cached clustering is keyed by (pipeline/stage-cache-keys.ts): whatever
   * changes the classes, never where a model is fetched from. A method with its own model also has
   * that model's loaded identity checked against each cached clustering (pipeline/cluster-grade-stages.ts).
   */
  cacheIdentity(spec: Spec): unknown;
  /** Whether its clusterings go through the stage cache (exact match is cheaper to redo than to look up). */
  cached: boolean;
  create(spec: Spec, deps: ClustererDeps): Clusterer | undefined;
  cli: {
    /** Help for its own flags (`semece cluster --help`). */
    help: string;
    /** Its own flags, beside the command's. */
    flags: Record<string, 'string' | 'boolean'>;
    /** Its settings from the flags; throws, naming the flag, on a bad value. `judge`: the judge the flags name. */
    settings(flags: CliFlags, judge: () => ModelSpec): Omit<Spec, 'method'>;
  };
}

/** The parts of a model spec that change its output (not concurrency or timeouts). */
export function modelCacheIdentity(m: ModelSpec) {
  return { preset: m.preset, baseUrl: m.baseUrl.replace(/\/+$/, ''), model: m.model };
}

const modelDirFlags = { 'model-dir': 'string', 'allow-remote-models': 'boolean' } as const;
const modelDirHelp = '[--model-dir DIR] (default: the repository\'s public/models) [--allow-remote-models]';
const ownModel = ({ model, allowRemote }: { model?: string; allowRemote?: boolean }): OwnModelSource => ({ model: model ?? '', allowRemote: allowRemote ?? false });

export const CLUSTERERS: { [M in ClusteringMethodName]: ClustererRow<ClusteringSettings<M>> } = {
  judge: {
    cacheIdentity: (s) => ({ method: s.method, judge: modelCacheIdentity(s.judge), prompt: s.prompt ?? null, promptVersion: JUDGE_PROMPT_VERSION }),
    cached: true,
    create: (s, deps) => deps.provider && createJudgeClusterer({ provider: deps.provider(s.judge), prompt: s.prompt, retries: deps.retries }),
    cli: {
      help: '--provider PRESET --model MODEL [--base-url URL] [--concurrency N] [--retries N]',
      flags: { provider: 'string', model: 'string', 'base-url': 'string', retries: 'string' },
      settings: (_flags, judge) => ({ judge: judge() }),
    },
  },
  embedding: {
    cacheIdentity: (s) => ({ method: s.method, model: s.model, threshold: s.threshold }),
    cached: true,
    create: (s, deps) => deps.embedder && createEmbeddingClusterer({ embedder: deps.embedder(ownModel(s)), threshold: s.threshold, cache: deps.embeddingCache }),
    cli: {
      help: `[--embedding-model ID] (default ${DEFAULT_EMBEDDING_MODEL}) [--threshold T] (default ${DEFAULT_SIMILARITY_THRESHOLD})\n              ${modelDirHelp}`,
      flags: { 'embedding-model': 'string', threshold: 'string', ...modelDirFlags },
      settings: (f) => {
        const threshold = f.threshold === undefined ? DEFAULT_SIMILARITY_THRESHOLD : Number(f.threshold);
        if (!Number.isFinite(threshold) || threshold < -1 || threshold > 1) throw new Error(`--threshold must be a cosine similarity in [-1, 1], got ${JSON.stringify(f.threshold)}`);
        return { model: (f['embedding-model'] as string | undefined) ?? DEFAULT_EMBEDDING_MODEL, threshold, allowRemote: f['allow-remote-models'] === true };
      },
    },
  },
  entailment: {
    // The NLI model decides every pair; the rule's version changes with the rule (clustering/entailment.ts).
    // The similarity setting only where on: a clustering without it keeps the key it always had.
    cacheIdentity: (s) => ({ method: s.method, model: s.model, rule: ENTAILMENT_RULE_VERSION, ...(s.similarity ? { similarity: s.similarity } : {}) }),
    cached: true,
    create: (s, deps) =>
      deps.decider && createEntailmentClusterer({ decider: deps.decider(ownModel(s)), cache: deps.entailmentCache, onDecided: deps.onDecided, similarity: s.similarity === 'entailment' }),
    cli: {
      help: [
        `[--model ID] (default ${DEFAULT_NLI_MODEL}) ${modelDirHelp}`,
        'two answers share a class when the NLI model says each entails the other, the question',
        "as context; each answer is compared with each class's first member (docs/CLUSTERING.md);",
        "the model's pair decisions are kept in OUT.cache.jsonl, so a repeated command asks none twice.",
        '[--similarity entailment] also score every pair of distinct answers, both ways, and write the',
        "mean of the two entailment probabilities as the row's answer_similarity: semece score's",
        'EigV, Deg and Ecc then use it (Lin, Trivedi & Sun 2023); g(g − 1) pairs for g distinct answers.',
        `Shipped with the repository (no download): ${SHIPPED_NLI_MODELS.join(', ')}. From the hub (q8):`,
        ...OFFERED_NLI_MODELS.filter((m) => m.approxMb > 0).map((m) => `  ${m.id} (about ${m.approxMb} MB)`),
      ].join('\n              '),
      flags: { model: 'string', similarity: 'string', ...modelDirFlags },
      settings: (f) => {
        const similarity = f.similarity as string | undefined;
        if (similarity !== undefined && !(ENTAILMENT_SIMILARITY as readonly string[]).includes(similarity)) {
          throw new Error(`--similarity must be ${ENTAILMENT_SIMILARITY.join(' or ')}, got ${JSON.stringify(similarity)}`);
        }
        return {
          model: (f.model as string | undefined) ?? DEFAULT_NLI_MODEL,
          allowRemote: f['allow-remote-models'] === true,
          ...(similarity ? { similarity: similarity as (typeof ENTAILMENT_SIMILARITY)[number] } : {}),
        };
      },
    },
  },
  exact: {
    cacheIdentity: (s) => ({ method: s.method }),
    cached: false,
    create: () => createExactClusterer(),
    cli: { help: '(no options) normalized exact match; multiple choice: the chosen option', flags: {}, settings: () => ({}) },
  },
};

/** Any registry of clusterers (the shipped one, or a copy a test adds a method to); each row typed by its own spec. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type ClustererTable = Readonly<Record<string, ClustererRow<any>>>;

/** The row of `spec`'s method in `table`. */
function rowOf(spec: { method: string }, table: ClustererTable): ClustererRow<{ method: string }> {
  return table[spec.method] as unknown as ClustererRow<{ method: string }>;
}

/**
 * The clusterer for `spec`. Where what it needs is not given (embeddings in a run with no
 * embedding worker), one that fails each question saying so, so the stage excludes them with why.
 * `clusterers` and `methods`: the shipped tables unless a test gives copies with a method of its own.
 */
export function createClusterer(spec: ClusteringSpec, deps: ClustererDeps, clusterers: ClustererTable = CLUSTERERS, methods: ClusteringMethodTable = CLUSTERING_METHODS): Clusterer {
  const built = rowOf(spec, clusterers).create(spec, deps);
  if (built) return built;
  const label = methods[spec.method].label;
  return { method: spec.method, cluster: async () => ({ ok: false, error: { kind: 'unavailable', message: `${label} cannot be computed here; choose exact match or the judge.` } }) };
}

/** `method`'s settings from the CLI's flags (`judge`: the judge the flags name, read only by the judge). */
export function clusteringFromFlags(method: ClusteringMethodName, flags: CliFlags, judge: () => ModelSpec, clusterers: ClustererTable = CLUSTERERS): ClusteringSpec {
  return { ...rowOf({ method }, clusterers).cli.settings(flags, judge), method } as ClusteringSpec;
}

/** What of `spec` the stage cache key holds. */
export function clustererCacheIdentity(spec: ClusteringSpec): unknown {
  return rowOf(spec, CLUSTERERS).cacheIdentity(spec);
}

/** Whether `spec`'s clusterings go through the stage cache. */
export function cachesClusteringOf(spec: Pick<ClusteringSpec, 'method'>): boolean {
  return CLUSTERERS[spec.method].cached;
}
