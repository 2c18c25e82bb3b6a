/**
 * The dataset step's "from the Hugging Face hub" choice: a catalogue entry or any hub dataset
 * (repo id, config and split, or one file of the repository), loaded by the dataset worker with
 * progress, then mapped to questions (the entry's mapping, the recognised layout, or the user's).
 * The token is held by the key ring like an API key (memory unless remembered) and sent only to
 * the hub address.
 */
import type { ColumnMapping, ColumnRole, DatasetPreview, SkippedRow } from '../../formats/datasets';
import { catalogueEntry, DEFAULT_HUB_URL, type CatalogueEntry, type HubSource } from '../../hub/catalogue';
import type { HubProgress } from '../../hub/hub-files';
import type { Dataset, Result, StageError } from '../../model/rows';
import type { DatasetWorkerApi, HubLoadResult } from '../../workers/dataset-api';
import { errorText } from '../error-text';

/** The key ring's name for the hub token (a provider of its own). */
export const HUB_TOKEN_PRESET = 'huggingface';

/** What the hub choice needs of the dataset worker. */
export type HubLoader = Pick<DatasetWorkerApi, 'loadHub' | 'remapHub'>;

export class HubDraft {
  /** A catalogue id, or 'other' for any hub dataset. */
  choice = $state<CatalogueEntry['id'] | 'other'>('simpleqa');
  repo = $state('');
  config = $state('default');
  split = $state('train');
  /** Instead of config and split: one file of the repository (CSV, JSON, JSONL or Parquet). */
  file = $state('');
  hubUrl = $state(DEFAULT_HUB_URL);

  loading = $state(false);
  progress = $state.raw<HubProgress | null>(null);
  error = $state.raw<StageError | null>(null);
  loaded = $state.raw<{ preview: DatasetPreview; files: HubLoadResult['files']; source: string } | null>(null);
  mapping = $state<ColumnMapping>({});
  dataset = $state.raw<Dataset | null>(null);
  skipped = $state.raw<SkippedRow[]>([]);
  /** What the loaded table is (so a changed form says "load again" rather than showing stale questions). */
  loadedFor = $state('');

  constructor(private readonly loader: () => Promise<HubLoader>) {}

  get entry(): CatalogueEntry | undefined {
    return this.choice === 'other' ? undefined : catalogueEntry(this.choice);
  }

  /** The source the form describes, or why it describes none. */
  get source(): Result<HubSource> {
    if (this.entry) return { ok: true, value: this.entry.source };
    const repo = this.repo.trim();
    if (!repo) return { ok: false, error: { kind: 'dataset', message: 'Enter the dataset id (owner/name).', where: 'hub dataset' } };
    if (this.file.trim()) return { ok: true, value: { repo, file: this.file.trim() } };
    if (!this.config.trim() || !this.split.trim()) return { ok: false, error: { kind: 'dataset', message: 'Enter the config and the split (or one file of the repository).', where: 'hub dataset' } };
    return { ok: true, value: { repo, config: this.config.trim(), split: this.split.trim() } };
  }

  private get formKey(): string {
    const s = this.source;
    return s.ok ? `${this.hubUrl}|${JSON.stringify(s.value)}` : '';
  }

  /** Whether the questions shown are those of the form as it is now. */
  get current(): boolean {
    return this.loadedFor !== '' && this.loadedFor === this.formKey;
  }

  async load(token: string): Promise<void> {
    const source = this.source;
    if (!source.ok) {
      this.error = source.error;
      return;
    }
    this.loading = true;
    this.error = null;
    this.progress = null;
    const key = this.formKey;
    try {
      const loader = await this.loader();
      const result = await loader.loadHub(
        { source: source.value, hubUrl: this.hubUrl.trim(), token: token || undefined, mapping: this.entry?.mapping },
        (p) => (this.progress = p),
      );
      if (!result.ok) {
        this.clear();
        this.error = result.error;
        return;
      }
      this.loaded = { preview: result.value.preview, files: result.value.files, source: result.value.source };
      this.loadedFor = key;
      this.mapping = { ...(this.entry?.mapping ?? result.value.preview.suggestedMapping) };
      this.take(result.value.read);
    } catch (e) {
      this.clear();
      this.error = { kind: 'dataset', message: errorText(e), where: 'hub dataset' };
    } finally {
      this.loading = false;
    }
  }

  async setRole(column: string, role: ColumnRole): Promise<void> {
    this.mapping = { ...this.mapping, [column]: role };
    const loader = await this.loader();
    this.take(await loader.remapHub($state.snapshot(this.mapping)));
  }

  private take(read: HubLoadResult['read']): void {
    if (read.ok) {
      this.dataset = read.value.dataset;
      this.skipped = read.value.skipped;
      this.mapping = { ...read.value.mapping };
      this.error = null;
    } else {
      this.dataset = null;
      this.skipped = [];
      this.error = read.error;
    }
  }

  private clear(): void {
    this.loaded = null;
    this.loadedFor = '';
    this.dataset = null;
    this.skipped = [];
  }
}
