import 'fake-indexeddb/auto';
import { expect, test } from 'vitest';
import { openStores } from '../../../src/store/stores';
import { DB_VERSION } from '../../../src/store/schema';

test('hub files are kept under their URL and read back byte for byte (a store since schema version 3)', async () => {
  expect(DB_VERSION).toBeGreaterThanOrEqual(3);
  const stores = await openStores(`hub-files-${Math.random()}`);
  const url = 'https://huggingface.co/datasets/a/b/resolve/refs%2Fconvert%2Fparquet/default/test/0000.parquet';
  expect(await stores.hubFiles.get(url)).toBeUndefined();
  await stores.hubFiles.put(url, new Uint8Array([80, 65, 82, 49, 0, 255]));
  expect(Array.from((await stores.hubFiles.get(url))!)).toEqual([80, 65, 82, 49, 0, 255]);
  stores.db.close();
});
