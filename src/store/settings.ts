/**
 * Small named settings: the editable price table, and API keys the user explicitly chose to
 * remember on this device. Nothing else ever writes a key to storage. Values are checked when
 * read back: a stored price table that is not one is a StoredRecordError, a stored key that is
 * not text is left out.
 */
import { validatePriceTable, type PriceTable } from '../model/cost';
import { DEFAULT_MODEL_HUB, normalizeModelHub } from '../model/model-hub';
import type { SemeceDatabase } from './db';
import { StoredRecordError } from './stored-records';

export type { PriceTable } from '../model/cost';

const PRICE_TABLE = 'priceTable';
const MODEL_HUB = 'modelHub';
const KEY_PREFIX = 'key:';

export class SettingsStore {
  constructor(private readonly db: SemeceDatabase) {}

  async getPriceTable(): Promise<PriceTable | undefined> {
    const stored = await this.db.get('settings', PRICE_TABLE);
    if (stored === undefined) return undefined;
    const checked = validatePriceTable(stored);
    if (!checked.ok) throw new StoredRecordError(`settings/${PRICE_TABLE}`, `The stored price table cannot be read: ${checked.message}`);
    return checked.value;
  }

  async setPriceTable(table: PriceTable): Promise<void> {
    await this.db.put('settings', table, PRICE_TABLE);
  }

  /** Where in-page models are downloaded from (model/model-hub.ts), when the user named a mirror; a stored value that is no address is ignored. */
  async getModelHub(): Promise<string | undefined> {
    const stored = await this.db.get('settings', MODEL_HUB);
    if (typeof stored !== 'string') return undefined;
    const checked = normalizeModelHub(stored);
    return checked.ok ? checked.value : undefined;
  }

  /** `undefined` or the default hub: forget the mirror. */
  async setModelHub(hub: string | undefined): Promise<void> {
    const checked = normalizeModelHub(hub ?? '');
    if (!checked.ok) throw new Error(checked.error.message);
    if (checked.value === DEFAULT_MODEL_HUB) await this.db.delete('settings', MODEL_HUB);
    else await this.db.put('settings', checked.value, MODEL_HUB);
  }

  /** Remembers a key for a provider (by keyId); only called after the user opted in. */
  async rememberKey(keyId: string, key: string): Promise<void> {
    await this.db.put('settings', key, KEY_PREFIX + keyId);
  }

  async forgetKey(keyId: string): Promise<void> {
    await this.db.delete('settings', KEY_PREFIX + keyId);
  }

  /** Every remembered key, by keyId. */
  async rememberedKeys(): Promise<Record<string, string>> {
    const out: Record<string, string> = {};
    const range = IDBKeyRange.bound(KEY_PREFIX, KEY_PREFIX + '\uffff');
    const tx = this.db.transaction('settings', 'readonly');
    let cursor = await tx.store.openCursor(range);
    while (cursor) {
      if (typeof cursor.value === 'string') out[String(cursor.key).slice(KEY_PREFIX.length)] = cursor.value;
      cursor = await cursor.continue();
    }
    await tx.done;
    return out;
  }
}

/** Bytes used and available for this origin, when the browser tells. */
export async function storageUsed(): Promise<{ usage: number; quota: number } | null> {
  const storage = (globalThis.navigator as Navigator | undefined)?.storage;
  if (!storage?.estimate) return null;
  const { usage = 0, quota = 0 } = await storage.estimate();
  return { usage, quota };
}
