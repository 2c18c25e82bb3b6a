/**
 * The CLI's HubFileCache: files read from the Hugging Face hub kept in a folder, one file per
 * URL (named by the URL's SHA-256, so no URL text reaches the file system), written to a
 * temporary name and renamed, so a process killed mid-write never leaves a torn file behind.
 * The folder is $SEMECE_HUB_CACHE, else $XDG_CACHE_HOME/semece/hub, else ~/.cache/semece/hub.
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { HubFileCache } from '../src/model/hub-file-cache.ts';

export function hubCacheFolder(env: NodeJS.ProcessEnv): string {
  if (env.SEMECE_HUB_CACHE) return env.SEMECE_HUB_CACHE;
  return path.join(env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'semece', 'hub');
}

export class HubFileFolder implements HubFileCache {
  constructor(readonly folder: string) {}

  private fileFor(url: string): string {
    return path.join(this.folder, `${createHash('sha256').update(url).digest('hex')}.bin`);
  }

  async get(url: string): Promise<Uint8Array | undefined> {
    try {
      return new Uint8Array(await readFile(this.fileFor(url)));
    } catch {
      return undefined;
    }
  }

  async put(url: string, bytes: Uint8Array): Promise<void> {
    await mkdir(this.folder, { recursive: true });
    const file = this.fileFor(url);
    const temp = `${file}.${process.pid}.tmp`;
    await writeFile(temp, bytes);
    await rename(temp, file);
  }
}
