/**
 * The open-ended QA benchmarks offered in three clicks, as they are on the Hugging Face hub. Each
 * is read from the hub's Parquet conversion of one config and split, and mapped with the same
 * roles a file's columns get (src/formats/datasets/layouts.ts), so what a catalogue entry reads
 * is exactly what the same data read from a file gives. Sizes and licences are the datasets'
 * cards' own; `rows` is the split's row count before rows are skipped (HLE's image questions).
 */
import type { ColumnMapping } from '../formats/datasets';

/** The hub's address; another (a mirror, a loopback server in tests) can be set where datasets are loaded. */
export const DEFAULT_HUB_URL = 'https://huggingface.co';

/** One split of a hub dataset: read from its Parquet conversion, or one file of the repository. */
export type HubSource =
  | { repo: string; config: string; split: string }
  | { repo: string; file: string; revision?: string };

export interface CatalogueEntry {
  id: 'simpleqa' | 'popqa' | 'triviaqa' | 'nq-open' | 'hle';
  title: string;
  source: HubSource & { config: string; split: string };
  rows: number;
  licence: string;
  /** Where the reference answer is, and the other accepted answers, in the layout's words. */
  answerField: string;
  aliasField?: string;
  /** Gated on the hub: a token of an account that accepted the conditions is needed. */
  gated?: boolean;
  mapping: ColumnMapping;
  about: string;
  /**
   * The columns worth slicing a report by (its Slices view, `semece score --by`): each is kept
   * with the questions into the report. `category` is the mapped category; a numeric column
   * marked `log10` is sliced by decade (pipeline/slices.ts bins any non-negative number with
   * many values so).
   */
  slices?: { column: string; label: string; binning?: 'log10' }[];
}

export const CATALOGUE: readonly CatalogueEntry[] = [
  {
    id: 'simpleqa',
    title: 'SimpleQA',
    source: { repo: 'basicv8vc/SimpleQA', config: 'default', split: 'test' },
    rows: 4326,
    licence: 'MIT',
    answerField: 'answer',
    mapping: { problem: 'question', answer: 'answer', metadata: 'category' },
    about: 'Short fact-seeking questions with one indisputable answer (OpenAI, 2024); the topic is the category.',
    slices: [{ column: 'category', label: 'topic' }],
  },
  {
    id: 'popqa',
    title: 'PopQA',
    source: { repo: 'akariasai/PopQA', config: 'default', split: 'test' },
    rows: 14267,
    licence: 'none declared (built from Wikidata, CC0)',
    answerField: 'possible_answers (first item)',
    aliasField: 'possible_answers (the rest)',
    mapping: { id: 'id', question: 'question', possible_answers: 'answer', prop: 'category' },
    about: 'Entity questions from Wikidata across popularity levels (Mallen et al., 2023); the relation is the category.',
    slices: [
      { column: 'category', label: 'relation' },
      { column: 's_pop', label: "subject's popularity (monthly Wikipedia page views)", binning: 'log10' },
    ],
  },
  {
    id: 'triviaqa',
    title: 'TriviaQA (rc.nocontext)',
    source: { repo: 'mandarjoshi/trivia_qa', config: 'rc.nocontext', split: 'validation' },
    rows: 17944,
    licence: 'unknown (not stated on the card)',
    answerField: 'answer.value',
    aliasField: 'answer.aliases',
    mapping: { question_id: 'id', question: 'question', 'answer.value': 'answer', 'answer.aliases': 'aliases' },
    about: 'Trivia questions asked closed-book (Joshi et al., 2017), graded against the answer and its aliases.',
  },
  {
    id: 'nq-open',
    title: 'Natural Questions (open)',
    source: { repo: 'google-research-datasets/nq_open', config: 'nq_open', split: 'validation' },
    rows: 3610,
    licence: 'CC BY-SA 3.0',
    answerField: 'answer (first item)',
    aliasField: 'answer (the rest)',
    mapping: { question: 'question', answer: 'answer' },
    about: 'Real search queries with short answers (Lee et al., 2019), the open-domain version of Natural Questions.',
  },
  {
    id: 'hle',
    title: "Humanity's Last Exam (text-only)",
    source: { repo: 'cais/hle', config: 'default', split: 'test' },
    rows: 2500,
    licence: 'MIT; gated: accept the conditions on the hub first',
    answerField: 'answer',
    gated: true,
    mapping: { id: 'id', question: 'question', answer: 'answer', category: 'category', image: 'skip-if-present' },
    about: 'Expert questions at the frontier of knowledge (Phan et al., 2025); questions with an image are skipped.',
    slices: [
      { column: 'category', label: 'subject category' },
      { column: 'raw_subject', label: 'subject' },
    ],
  },
];

export function catalogueEntry(id: string): CatalogueEntry | undefined {
  return CATALOGUE.find((e) => e.id === id);
}

/** "hub:owner/name:config/split" or "hub:owner/name@revision/path/to/file", as runs and reports record it. */
export function hubSourceName(source: HubSource): string {
  return 'file' in source ? `hub:${source.repo}@${source.revision ?? 'main'}/${source.file}` : `hub:${source.repo}:${source.config}/${source.split}`;
}

/** The columns other than the category that a hub source's questions keep for slicing (none for a source not in the catalogue). */
export function keptSliceColumns(source: string): string[] {
  const entry = CATALOGUE.find((e) => hubSourceName(e.source) === source);
  return (entry?.slices ?? []).map((s) => s.column).filter((c) => c !== 'category');
}
