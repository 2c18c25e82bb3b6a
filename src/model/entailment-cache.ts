/**
 * Natural-language-inference decisions cached by (NLI model, its identity, premise, hypothesis),
 * for the entailment clusterer: a repeated or resumed clustering asks the model nothing it was
 * asked before. The identity (a hash of the model's config and weights, transformers/model-identity.ts)
 * keeps apart two models under one id (another --model-dir, a hub model updated in place). The
 * store backs this port with IndexedDB (store/entailment-store.ts), the CLI with its cache file
 * (cli/entailment-cache.ts), the tests with a map (tests/mock/memory-entailment-cache.ts).
 */
import { sha256Hex } from './hash';

/** The MNLI label "the premise entails the hypothesis", the one the clusterer joins classes on. */
export const ENTAILMENT_LABEL = 'entailment';

/** The three MNLI labels, as the clusterer reads a model's top class (lower-cased). */
export const NLI_LABELS = [ENTAILMENT_LABEL, 'neutral', 'contradiction'] as const;
export type NliLabel = (typeof NLI_LABELS)[number];

/** The kind of error a failed NLI decision carries (the clusterer's and the NLI worker's). */
export const NLI_FAILED_KIND = ENTAILMENT_LABEL;

export function isNliLabel(value: unknown): value is NliLabel {
  return typeof value === 'string' && (NLI_LABELS as readonly string[]).includes(value);
}

/** One ordered pair: does `premise` entail `hypothesis` under `model`, the one whose files hash to `identity`. */
export interface EntailmentKey {
  model: string;
  identity: string;
  premise: string;
  hypothesis: string;
}

export interface EntailmentEntry extends EntailmentKey {
  label: NliLabel;
}

export interface EntailmentCache {
  /** One slot per key, in order; undefined where nothing is cached. */
  get(keys: EntailmentKey[]): Promise<(NliLabel | undefined)[]>;
  put(entries: EntailmentEntry[]): Promise<void>;
}

/** A stable string key; the NUL separator cannot occur in a model id and keeps the texts apart. */
export function entailmentKeyString(key: EntailmentKey): string {
  return `${key.model}\u0000${key.identity}\u0000${key.premise}\u0000${key.hypothesis}`;
}

/**
 * The stored key of one pair (IndexedDB, the CLI's cache file): a versioned hash, short however
 * long the answers. Version 2 holds the model's identity; version 1's keys (model id and texts
 * only) are never asked for, so a decision stored before identities is a miss, never trusted.
 */
export async function entailmentRecordKey(key: EntailmentKey): Promise<string> {
  return `e2:${await sha256Hex(entailmentKeyString(key))}`;
}
