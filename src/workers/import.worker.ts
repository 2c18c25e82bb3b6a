/// <reference lib="webworker" />
/** The import worker: share links and report files opened off the main thread (import-api.ts). */
import { importApi } from './import-api';
import { exposeApi } from './worker-connection';

exposeApi(importApi);
