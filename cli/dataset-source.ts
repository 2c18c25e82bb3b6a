/**
 * Where `semece sample` gets its questions: a dataset file, or `hub:OWNER/NAME[:SPLIT]` (also
 * `hub:OWNER/NAME:CONFIG/SPLIT`) read from the Hugging Face hub with the same modules as the app.
 * A catalogue benchmark given by its repo id uses its config, split and column mapping (a split
 * given replaces the entry's); any other dataset uses config "default" and split "train" unless
 * given, with its layout recognised. `--limit N --seed S` draws N questions as the app does
 * (stratified by category where there are categories). Hub address: $HF_ENDPOINT; token: $HF_TOKEN.
 * Only the Parquet columns the mapping (or the layout recognised in the first rows) reads are
 * decoded, and a file declaring more rows than a dataset may have is refused before decoding.
 * With --limit, only the Parquet row groups holding the drawn rows are decoded (hub/hub-draw.ts).
 */
import { readFile } from 'node:fs/promises';
import { readDataset, type ColumnMapping, type ReadDataset } from '../src/formats/datasets.ts';
import { drawSubset } from '../src/formats/datasets/subset.ts';
import { CATALOGUE, DEFAULT_HUB_URL, type HubSource } from '../src/hub/catalogue.ts';
import { loadHubQuestions } from '../src/hub/hub-dataset.ts';
import type { Result } from '../src/model/rows.ts';
import { HubFileFolder, hubCacheFolder } from './hub-file-folder.ts';

export const HUB_PREFIX = 'hub:';

export interface DatasetSourceOptions {
  env: NodeJS.ProcessEnv;
  /** Progress lines (downloads); nothing is printed for files read from the cache. */
  log: (line: string) => void;
  limit?: number;
  seed?: number;
  /** Each Parquet column chunk a hub draw decoded (file, row group, column): what --limit read. */
  onDecoded?: (file: string, group: number, column: string) => void;
}

/** The hub source a `hub:` argument names, with the mapping of its catalogue entry if it is one. */
export function parseHubSpec(spec: string): Result<{ source: HubSource; mapping?: ColumnMapping }> {
  const body = spec.slice(HUB_PREFIX.length);
  const m = /^([^:/\s]+\/[^:/\s]+)(?::(?:([^/\s]+)\/)?([^/\s]+))?$/.exec(body);
  if (!m) return { ok: false, error: { kind: 'usage', message: `--dataset ${spec}: expected hub:OWNER/NAME, hub:OWNER/NAME:SPLIT or hub:OWNER/NAME:CONFIG/SPLIT`, where: '--dataset' } };
  const [, repo, config, split] = m;
  const entry = CATALOGUE.find((e) => e.source.repo.toLowerCase() === repo.toLowerCase());
  if (entry) return { ok: true, value: { source: { repo: entry.source.repo, config: config ?? entry.source.config, split: split ?? entry.source.split }, mapping: entry.mapping } };
  return { ok: true, value: { source: { repo, config: config ?? 'default', split: split ?? 'train' } } };
}

export async function readDatasetSource(spec: string, options: DatasetSourceOptions): Promise<Result<ReadDataset>> {
  // A hub split is drawn while it is read (only the row groups the draw needs are decoded).
  if (spec.startsWith(HUB_PREFIX)) return readHub(spec, options);
  const read = await readLocal(spec);
  if (!read.ok || options.limit === undefined) return read;
  const dataset = drawSubset(read.value.dataset, { n: options.limit, seed: options.seed ?? 0, stratify: true });
  return { ok: true, value: { ...read.value, dataset } };
}

async function readLocal(file: string): Promise<Result<ReadDataset>> {
  let bytes: Uint8Array;
  try {
    bytes = await readFile(file);
  } catch (e) {
    return { ok: false, error: { kind: 'usage', message: `cannot read ${file}: ${(e as Error).message}`, where: file } };
  }
  return readDataset(bytes, file.split(/[\\/]/).pop() ?? file);
}

async function readHub(spec: string, options: DatasetSourceOptions): Promise<Result<ReadDataset>> {
  const parsed = parseHubSpec(spec);
  if (!parsed.ok) return parsed;
  let lastShown = -1;
  return loadHubQuestions(parsed.value.source, {
    hubUrl: options.env.HF_ENDPOINT || DEFAULT_HUB_URL,
    token: options.env.HF_TOKEN || undefined,
    cache: new HubFileFolder(hubCacheFolder(options.env)),
    onProgress: (p) => {
      // One line per tenth of the download, so a log stays short.
      if (p.phase !== 'downloading' || p.total === 0 || p.cached === p.total) return;
      const tenth = Math.floor((10 * p.done) / p.total);
      if (tenth === lastShown) return;
      lastShown = tenth;
      options.log(`downloading ${spec}: ${(p.done / 1024 / 1024).toFixed(1)} of ${(p.total / 1024 / 1024).toFixed(1)} MB`);
    },
  }, {
    mapping: parsed.value.mapping,
    draw: options.limit === undefined ? undefined : { n: options.limit, seed: options.seed ?? 0, stratify: true },
    onDecoded: options.onDecoded,
  });
}
