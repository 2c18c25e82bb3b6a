/**
 * The run worker: every network request of a run happens here, off the main thread. Exposed
 * with Comlink; the API is in run-worker-api.ts, its types in protocol.ts.
 */
import * as Comlink from 'comlink';
import { createRunWorkerApi } from './run-worker-api';
import { registerErrorTransfer } from './transfer';

registerErrorTransfer();
// Until the page says otherwise (setAppBase): the folder above the worker's own bundle (assets/).
Comlink.expose(createRunWorkerApi({ appBase: new URL('../', self.location.href).href }));
