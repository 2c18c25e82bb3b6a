/** One handle on every store, opened once per page or worker. */
import { openSemeceDb, type SemeceDatabase } from './db';
import { AuditStore } from './audits';
import { IdbEmbeddingCache } from './embedding-store';
import { IdbEntailmentCache } from './entailment-store';
import { IdbHubFileCache } from './hub-file-store';
import { RunStore } from './runs';
import { IdbSampleCache } from './sample-store';
import { SettingsStore } from './settings';
import { IdbStageCache } from './idb-stage-cache';
import { IdbPendingBatchStore } from './pending-batches';

export interface Stores {
  db: SemeceDatabase;
  runs: RunStore;
  samples: IdbSampleCache;
  stages: IdbStageCache;
  embeddings: IdbEmbeddingCache;
  entailment: IdbEntailmentCache;
  hubFiles: IdbHubFileCache;
  settings: SettingsStore;
  audits: AuditStore;
  pendingBatches: IdbPendingBatchStore;
}

export function storesOver(db: SemeceDatabase): Stores {
  return {
    db,
    runs: new RunStore(db),
    samples: new IdbSampleCache(db),
    stages: new IdbStageCache(db),
    embeddings: new IdbEmbeddingCache(db),
    entailment: new IdbEntailmentCache(db),
    hubFiles: new IdbHubFileCache(db),
    settings: new SettingsStore(db),
    audits: new AuditStore(db),
    pendingBatches: new IdbPendingBatchStore(db),
  };
}

export async function openStores(name?: string): Promise<Stores> {
  return storesOver(await openSemeceDb(name));
}

/** Commits every batched write queued so far (samples, embeddings, entailment decisions); for a page about to go away. */
export async function flushWrites(stores: Stores): Promise<void> {
  await Promise.all([stores.samples.flush(), stores.embeddings.flush(), stores.entailment.flush()]);
}
