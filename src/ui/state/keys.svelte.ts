/**
 * API keys on the page: in memory for this tab, unless the user ticks "remember on this device"
 * for a provider, which stores that one key in IndexedDB settings (through the run worker, which
 * owns the database) until "forget". Keys are looked up by keyId (preset + origin), so a key is
 * only ever handed out for its own provider.
 */
import { keyId, type ModelSpec, type RunKeys } from '../../model/run-spec';
import type { Result } from '../../model/rows';
import type { StorageApi } from '../../workers/protocol';
import { storageClient } from '../run-client';
import { errorText } from '../error-text';

/** Where remembered keys are kept: the run worker's storage. */
export type RememberedKeyStore = Pick<StorageApi, 'rememberedKeys' | 'rememberKey' | 'forgetKey'>;

/** The value, or a throw with the error's message (as a failed store write threw before). */
function valueOf<T>(result: Result<T>): T {
  if (!result.ok) throw new Error(result.error.message);
  return result.value;
}

export class KeyRing {
  /** keyId → key, for this tab. */
  keys = $state<Record<string, string>>({});
  /** keyIds whose key is stored on this device. */
  remembered = $state<string[]>([]);
  loaded = $state(false);
  error = $state('');
  /** Settles once remembered keys are read (at once when `load` was never called). */
  ready: Promise<void> = Promise.resolve();

  private readonly store: RememberedKeyStore;

  constructor(store: RememberedKeyStore = storageClient) {
    this.store = store;
  }

  load(): Promise<void> {
    this.ready = this.read();
    return this.ready;
  }

  private async read(): Promise<void> {
    try {
      const stored = valueOf(await this.store.rememberedKeys());
      this.keys = { ...stored, ...this.keys };
      this.remembered = Object.keys(stored);
    } catch (e) {
      this.error = `Remembered keys could not be read: ${errorText(e)}`;
    } finally {
      this.loaded = true;
    }
  }

  get(model: Pick<ModelSpec, 'preset' | 'baseUrl'>): string {
    return this.keys[keyId(model)] ?? '';
  }

  isRemembered(model: Pick<ModelSpec, 'preset' | 'baseUrl'>): boolean {
    return this.remembered.includes(keyId(model));
  }

  /** Sets the key for this tab only (as the user types). */
  setMemory(model: Pick<ModelSpec, 'preset' | 'baseUrl'>, key: string): void {
    this.keys = { ...this.keys, [keyId(model)]: key };
  }

  /** Sets the key for this tab; stores it only when `remember` is true (and un-stores it otherwise). */
  async set(model: Pick<ModelSpec, 'preset' | 'baseUrl'>, key: string, { remember }: { remember: boolean }): Promise<void> {
    const id = keyId(model);
    this.keys = { ...this.keys, [id]: key };
    if (remember && key) {
      valueOf(await this.store.rememberKey(id, key));
      if (!this.remembered.includes(id)) this.remembered = [...this.remembered, id];
    } else if (this.remembered.includes(id)) {
      valueOf(await this.store.forgetKey(id));
      this.remembered = this.remembered.filter((r) => r !== id);
    }
  }

  /** Removes the key from this device and from this tab. */
  async forget(model: Pick<ModelSpec, 'preset' | 'baseUrl'>): Promise<void> {
    const id = keyId(model);
    valueOf(await this.store.forgetKey(id));
    this.remembered = this.remembered.filter((r) => r !== id);
    const { [id]: _gone, ...rest } = this.keys;
    this.keys = rest;
  }

  /** The keys a run needs: only those of its own models and judges. */
  forModels(models: Pick<ModelSpec, 'preset' | 'baseUrl'>[]): RunKeys {
    const out: RunKeys = {};
    for (const m of models) {
      const id = keyId(m);
      if (this.keys[id]) out[id] = this.keys[id];
    }
    return out;
  }
}

let shared: KeyRing | undefined;

/** One key ring per tab, shared by the wizard, the run page and the runs page. */
export function keyRing(): KeyRing {
  if (!shared) {
    shared = new KeyRing();
    void shared.load();
  }
  return shared;
}
