/**
 * Where files read from the Hugging Face hub are kept, so a second load of the same dataset reads
 * nothing from the network: the page's implementation is IndexedDB (store/hub-file-store.ts), the
 * CLI's a folder (cli/hub-file-folder.ts). Keys are the file's URL, never with a token in it.
 */
export interface HubFileCache {
  get(url: string): Promise<Uint8Array | undefined>;
  put(url: string, bytes: Uint8Array): Promise<void>;
}

/** A cache that keeps nothing (a caller that wants every load fresh). */
export const NO_HUB_CACHE: HubFileCache = {
  get: async () => undefined,
  put: async () => undefined,
};
