/**
 * The dataset worker: hub datasets fetched, cached in IndexedDB and parsed here, so a large
 * Parquet split never blocks the page. The database is opened on first use.
 */
import { NO_HUB_CACHE, type HubFileCache } from '../model/hub-file-cache';
import { openStores } from '../store';
import { datasetWorkerApi } from './dataset-api';
import { exposeApi } from './worker-connection';

let cache: Promise<HubFileCache> | undefined;

// Without IndexedDB (a private window that refuses it) datasets still load, only not offline.
const openCache = () => (cache ??= openStores().then((s) => s.hubFiles as HubFileCache, () => NO_HUB_CACHE));

exposeApi(datasetWorkerApi(openCache));
