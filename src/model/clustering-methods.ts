/**
 * The clustering methods, once: each method's name, its settings (a zod schema: the run spec's
 * ClusteringSpec type and the one check a stored run and the wizard's saved draft are read back
 * through derive from it), its words (the wizard's choice, the CLI's help, what a report says of a
 * clustering) and whether it runs a model of its own. The run-spec schema (formats/run-spec-schema.ts),
 * the report's method enum (formats/report-schema.ts), the rows' recorded method
 * (formats/row-methods.ts), the wizard's options (ui/run/clustering-choice.ts) and the CLI's
 * `--method` values derive from CLUSTERING_METHODS; how each is built and what its stage cache key
 * holds is the clustering registry (clustering/clusterer-registry.ts).
 *
 * Adding a method: its clusterer module in clustering/, a row here, its row in clustering/clusterer-registry.ts,
 * and its wizard row: its settings panel in ui/run/clustering-panels/ (which carries the row), or a
 * `noSettings` line in ui/run/clustering-choice.ts (at most four files; docs/ARCHITECTURE.md).
 */
import { z } from 'zod';
import { PROVIDER_KINDS, type ProviderConfig } from './provider';

const text = z.string();

/** A model as a run records it (ModelSpec: where to reach it, never how to authenticate). */
export const modelSpecSchema = z.looseObject({ kind: z.enum(PROVIDER_KINDS), preset: text, baseUrl: text, model: text }) as unknown as z.ZodType<
  Omit<ProviderConfig, 'apiKey'>
>;

/** A judge's own prompt, where the user changed it. */
export const judgePromptSchema = z.looseObject({ system: text, user: text }).optional();

/** What each method's row holds; `S` is its settings' schema (the spec's fields besides `method`). */
export interface ClusteringMethodInfo<S extends z.ZodObject = z.ZodObject> {
  /** Short name, for the wizard's choice and tables. */
  label: string;
  /** The wizard's one-line explanation after the label. */
  description: string;
  /** Place in the wizard's list (cheapest first). */
  rank: number;
  /**
   * The settings a spec carries besides `method`. Checked as a loose object (fields the check does
   * not name are kept); a stored run is read back through it, so it stays as lenient as the records.
   */
  settings: S;
  /** What a report says of the clustering, in words (its model or rule). */
  detail(settings: z.infer<S>): string;
  /**
   * The role of the model it runs itself (Transformers.js, in the page or in Node), if any: that
   * model's identity (transformers/model-identity.ts) is then recorded with each cached clustering,
   * and a clustering made by another model under the same id is not reused.
   */
  ownModel?: OwnModelRole;
  /**
   * The API model it sends requests to (the LLM judge), if any: a run asks for its key, prices its
   * requests, checks its base URL and may send them as a batch.
   */
  apiModel?(settings: z.infer<S>): Omit<ProviderConfig, 'apiKey'>;
}

/** The entailment method's similarity setting: its one value asks for every pair's entailment probability. */
export const ENTAILMENT_SIMILARITY = ['entailment'] as const;

/** The roles of the models a clusterer runs itself. */
export type OwnModelRole = 'embedding' | 'nli';

// `O` keeps a row's own-model role as its literal type, so a method can be named by its model (MethodWithOwnModel).
const row = <S extends z.ZodObject, const O extends OwnModelRole | undefined = undefined>(info: ClusteringMethodInfo<S> & { ownModel?: O }) =>
  info as ClusteringMethodInfo<S> & { ownModel: O };

/** Every method, in the order the CLI, the report schema and the rows list them. */
export const CLUSTERING_METHODS = {
  judge: row({
    label: 'LLM judge',
    description: 'a model groups answers that mean the same (as in the paper). One request per question.',
    rank: 3,
    settings: z.object({ judge: modelSpecSchema, prompt: judgePromptSchema }),
    // As modelLabel (model/run-spec.ts) writes a model; run-spec.ts imports this table, so not from there.
    detail: (s) => `judge ${s.judge.preset}/${s.judge.model}`,
    apiModel: (s) => s.judge,
  }),
  embedding: row({
    label: 'Embeddings',
    description: 'a small sentence model in your browser groups similar answers. No key needed.',
    rank: 1,
    // `allowRemote`: fetch the model from the Hugging Face hub when the app does not ship it.
    settings: z.object({ model: text, threshold: z.number(), allowRemote: z.boolean().optional() }),
    detail: (s) => `${s.model}, cosine threshold ${s.threshold}`,
    ownModel: 'embedding',
  }),
  entailment: row({
    label: 'Entailment',
    description:
      'a language-inference model in your browser puts two answers together when each entails the other (semantic uncertainty, Kuhn et al. 2023). No key needed.',
    rank: 2,
    // An NLI model (clustering/entailment.ts, docs/CLUSTERING.md); `allowRemote` as for embeddings.
    // `similarity: 'entailment'`: also every pair's entailment probability, the graph signals' similarity.
    settings: z.object({ model: text, allowRemote: z.boolean().optional(), similarity: z.enum(ENTAILMENT_SIMILARITY).optional() }),
    detail: (s) =>
      `${s.model}, mutual entailment with each class's first member, the question as context${s.similarity === 'entailment' ? '; answer similarity from the entailment probabilities of every pair' : ''}`,
    ownModel: 'nli',
  }),
  exact: row({
    label: 'Exact match',
    description: 'answers equal after normalising case, punctuation and articles. Free and instant.',
    rank: 0,
    settings: z.object({}),
    detail: () => 'normalized exact match',
  }),
} as const;

/** Any table of methods (the real one, or one a test builds to see what derives from it). */
export type ClusteringMethodTable = Readonly<Record<string, ClusteringMethodInfo>>;
type Table = typeof CLUSTERING_METHODS;

/** A clustering method's name. */
export type ClusteringMethodName = keyof Table & string;

/** A settings schema's values; none for an empty one (zod infers an empty object as Record<string, never>). */
type SettingsOf<S extends z.ZodObject> = keyof S['shape'] extends never ? unknown : z.infer<S>;

/** A clustering as a run spec records it: the method and its settings. */
export type ClusteringSpec = { [M in ClusteringMethodName]: { method: M } & SettingsOf<Table[M]['settings']> }[ClusteringMethodName];

/** The spec of one method. */
export type ClusteringSettings<M extends ClusteringMethodName> = Extract<ClusteringSpec, { method: M }>;

/** The methods' names in the table's order. */
export function clusteringMethodNames(table: ClusteringMethodTable = CLUSTERING_METHODS): string[] {
  return Object.keys(table);
}

export const CLUSTERING_METHOD_NAMES = clusteringMethodNames() as unknown as readonly [ClusteringMethodName, ...ClusteringMethodName[]];

export function isClusteringMethod(name: string): name is ClusteringMethodName {
  return Object.hasOwn(CLUSTERING_METHODS, name);
}

/** The method that runs a model of the role `R` itself (one per role), as a type. */
export type MethodWithOwnModel<R extends OwnModelRole> = { [M in ClusteringMethodName]: Table[M]['ownModel'] extends R ? M : never }[ClusteringMethodName];

/**
 * The method that runs a model of the role `role` itself, from the table: what a page that offers
 * "group with an NLI model" names, without spelling the method.
 */
export function methodWithOwnModel<R extends OwnModelRole>(role: R): MethodWithOwnModel<R> {
  const found = CLUSTERING_METHOD_NAMES.find((m) => CLUSTERING_METHODS[m].ownModel === role);
  if (!found) throw new Error(`no clustering method runs a model of the role ${role}`);
  return found as MethodWithOwnModel<R>;
}

/** The zod schema of a ClusteringSpec: one loose object per method, told apart by `method`. */
export function clusteringSpecSchemaOf<T extends ClusteringMethodTable = Table>(table: T = CLUSTERING_METHODS as unknown as T) {
  type Option = z.ZodObject<{ method: z.ZodLiteral<keyof T & string> } & z.core.$ZodLooseShape, z.core.$loose>;
  const options = Object.entries(table).map(([name, info]) => z.looseObject({ method: z.literal(name), ...info.settings.shape })) as unknown as Option[];
  return z.discriminatedUnion('method', options as [Option, ...Option[]]);
}

/** The model a clustering runs itself (a method with an own model keeps its id in `model`), or none. */
export function ownModelOf(spec: { method: string; model?: string; allowRemote?: boolean }, table: ClusteringMethodTable = CLUSTERING_METHODS): { role: OwnModelRole; model: string; allowRemote: boolean } | undefined {
  const role = Object.hasOwn(table, spec.method) ? table[spec.method].ownModel : undefined;
  return role ? { role, model: spec.model?.trim() ?? '', allowRemote: spec.allowRemote ?? false } : undefined;
}

/** The row of a method (of `table`: the shipped one unless a test gives its own). */
export function clusteringMethod(name: ClusteringMethodName, table: ClusteringMethodTable = CLUSTERING_METHODS): ClusteringMethodInfo {
  return table[name] as unknown as ClusteringMethodInfo;
}

/** What a report says of a clustering made with `spec` (also written into the CLI's rows). */
export function clusteringDetail(spec: ClusteringSpec, table: ClusteringMethodTable = CLUSTERING_METHODS): string {
  return clusteringMethod(spec.method, table).detail(spec);
}

/**
 * The API model a clustering sends requests to (its judge), from its row, or none: what asks for a
 * key, prices, checks a base URL or batches a clustering's requests reads it here, never by the
 * method's name.
 */
export function clusteringApiModel(spec: ClusteringSpec, table: ClusteringMethodTable = CLUSTERING_METHODS): Omit<ProviderConfig, 'apiKey'> | undefined {
  return clusteringMethod(spec.method, table).apiModel?.(spec);
}
