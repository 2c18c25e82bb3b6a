/** The model's HubFileCache port over IndexedDB: one record per URL with the file's bytes. */
import type { HubFileCache } from '../model/hub-file-cache';
import type { SemeceDatabase } from './db';

export class IdbHubFileCache implements HubFileCache {
  constructor(private readonly db: SemeceDatabase) {}

  async get(url: string): Promise<Uint8Array | undefined> {
    return (await this.db.get('hubFiles', url))?.bytes;
  }

  async put(url: string, bytes: Uint8Array): Promise<void> {
    await this.db.put('hubFiles', { url, bytes, storedAt: Date.now() });
  }
}
