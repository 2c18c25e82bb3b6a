/**
 * The dataset worker: hub datasets fetched, cached in IndexedDB and parsed here, so a large
 * Parquet split never blocks the page. The database is opened on first use.
 */
import { NO_HUB_CACHE, type HubFileCache } from '../model/hub-file-cache';
import { realmStores } from '../store/connection';
import { datasetWorkerApi } from './dataset-api';
import { exposeApi } from './worker-connection';
import { postStorageNotices } from './storage-notices';

// This realm's one connection (store/connection.ts), asked each time so a reopened one is used.
// Without IndexedDB (a private window that refuses it) datasets still load, only not offline.
const openCache = () => realmStores().then((s) => s.hubFiles as HubFileCache, () => NO_HUB_CACHE);

postStorageNotices();
exposeApi(datasetWorkerApi(openCache));
