/**
 * The batch worker: batch mode for a run in the browser, off the main thread, over this realm's
 * one database connection (store/connection.ts). What it serves is batch-api.ts.
 */
import { realmStores } from '../store/connection.ts';
import { batchWorkerApi } from './batch-api.ts';
import { exposeApi } from './worker-connection.ts';
import { postStorageNotices } from './storage-notices.ts';

export type { BatchProgress, BatchSubmitOptions, BatchWorkerApi, ReadSummary, RequestFiles, SubmitSummary } from './batch-api.ts';

postStorageNotices();
exposeApi(batchWorkerApi({ stores: () => realmStores() }));
