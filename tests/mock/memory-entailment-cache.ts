/**
 * The entailment cache port (model/entailment-cache.ts) in memory, for the tests and the NLI test
 * page: the page's cache is the store's IndexedDB one, the CLI's its cache file.
 */
import { entailmentKeyString, type EntailmentCache, type EntailmentEntry, type EntailmentKey, type NliLabel } from '../../src/model/entailment-cache';

export class MemoryEntailmentCache implements EntailmentCache {
  private readonly labels = new Map<string, NliLabel>();

  async get(keys: EntailmentKey[]): Promise<(NliLabel | undefined)[]> {
    return keys.map((k) => this.labels.get(entailmentKeyString(k)));
  }

  async put(entries: EntailmentEntry[]): Promise<void> {
    for (const e of entries) this.labels.set(entailmentKeyString(e), e.label);
  }

  get size(): number {
    return this.labels.size;
  }
}
