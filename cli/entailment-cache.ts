/**
 * The entailment clusterer's pair decisions kept in the CLI's cache file beside --out (as the
 * judge's clusterings are, cli/judge-cache.ts), under the same hashed keys the app's IndexedDB
 * store uses: a repeated `semece cluster --method entailment` asks the NLI model nothing twice.
 */
import { entailmentRecordKey, isNliLabel, type EntailmentCache, type EntailmentEntry, type EntailmentKey, type NliLabel } from '../src/model/entailment-cache.ts';
import { JsonlRecords } from './jsonl-records.ts';

export const entailmentRecords = (path: string) => new JsonlRecords<NliLabel>(path, 'nli', isNliLabel);

export class JsonlEntailmentCache implements EntailmentCache {
  constructor(private readonly records: JsonlRecords<NliLabel>) {}

  async get(keys: EntailmentKey[]): Promise<(NliLabel | undefined)[]> {
    const hashed = await Promise.all(keys.map(entailmentRecordKey));
    return hashed.map((k) => this.records.get(k));
  }

  async put(entries: EntailmentEntry[]): Promise<void> {
    await this.records.put(await Promise.all(entries.map(async (e) => ({ key: await entailmentRecordKey(e), value: e.label }))));
  }
}
