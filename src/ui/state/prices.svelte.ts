/**
 * The user's price table as the page shows it: the defaults at once, then the stored table (read
 * through the run worker) when there is one; a table that cannot be read leaves the defaults (a
 * run that needs it then says why). One loader for every view that prices a run.
 */
import { DEFAULT_PRICES, type PriceTable } from '../../model/cost';
import { storageClient } from '../run-client';

export class UserPrices {
  table = $state<PriceTable>({ ...DEFAULT_PRICES });

  constructor(load: () => Promise<{ ok: boolean; value?: PriceTable | null }> = () => storageClient.getPrices()) {
    load()
      .then((stored) => {
        if (stored.ok && stored.value) this.table = stored.value;
      })
      .catch(() => undefined);
  }
}
