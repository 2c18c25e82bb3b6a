/**
 * The run worker: every network request of a run happens here, off the main thread, and it is
 * the one owner of the page's IndexedDB. The API is in run-worker-api.ts, its types in protocol.ts.
 */
import { createRunWorkerApi } from './run-worker-api';
import { exposeApi } from './worker-connection';
import { postStorageNotices } from './storage-notices';

postStorageNotices();
// Until the page says otherwise (setAppBase): the folder above the worker's own bundle (assets/).
exposeApi(createRunWorkerApi({ appBase: new URL('../', self.location.href).href }));
