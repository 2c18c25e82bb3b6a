/**
 * The one IndexedDB schema of the app, as a typed idb DBSchema. Every stage's output has its
 * own store, keyed by a hash of that stage's inputs and settings, so a changed setting misses
 * only the caches downstream of it. Run records hold settings and progress, never a key.
 */
import type { DBSchema } from 'idb';
import type { ReportDocument } from '../model/report';
import type { RunRecord } from '../model/run-spec';
import type { UsageTotals } from '../model/sample-cache';
import type { Grade, Question, Sample } from '../model/rows';
import type { StoredClustering, StoredGrade } from '../model/stage-cache';
import type { AuditRecord } from '../model/audit-repository';
import type { PendingBatch } from '../model/pending-batch';

export const DB_NAME = 'semece';
/**
 * 1: the first schema; 2: the unused `datasets` store dropped (db.ts); 3: `hubFiles` added; 4: `usage` added;
 * 5: `entailment` added; 6: samples stored by question (`questionSamples`, `questionSlots`) instead of one
 * record per sample (`samples`, migrated and dropped: db.ts, sample-migration.ts); 7: `runQuestions` added, a
 * run's questions kept apart from its record (run-records.ts); 8: `audits` added, a person's audit of a report
 * in progress (audits.ts); 9: `pendingBatches` added, batches submitted to a provider and not yet collected
 * (pending-batches.ts).
 */
export const DB_VERSION = 9;

/**
 * A run record as stored: the record and the version of its shape (absent in version 1). From
 * version 2 the dataset's questions are kept apart (`runQuestions`, written once) and the record
 * holds an empty list and their count, so the runner's checkpoint every second rewrites progress,
 * not 40,000 questions.
 */
export type StoredRun = RunRecord & { version?: number; questionCount?: number };

/** A run's dataset questions, stored once when the run is first saved (record version 2 on). */
export interface StoredRunQuestions {
  runId: string;
  questions: Question[];
}

/**
 * One sampled reply as versions 1–5 stored it, one record per sample (the `samples` store): read
 * only by the version-6 upgrade, which moves it into the by-question layout.
 */
export interface StoredSample {
  key: string;
  /** Key of the (provider, model, prompt, settings, question) the sample belongs to, when known. */
  question?: string;
  sample: Sample;
  storedAt: number;
}

/**
 * Every stored sample of one question under one (provider, model, prompt, settings): the record of
 * the key base (model/sample-groups.ts). Independent of any run: two runs with the same inputs share it.
 */
export interface StoredQuestionSamples {
  /** The key base: sample i's key is `<key>#i`. */
  key: string;
  /** The slot of each sample, the text after its key's last '#' ('0' … 'n-1' for the runner's keys). */
  slots: string[];
  /**
   * The samples, `samples[j]` under `slots[j]`. Two arrays rather than an object keyed by slot:
   * a record of 50 samples deserializes about 3.5 times faster (V8's serializer, which IndexedDB uses).
   */
  samples: Sample[];
  storedAt: number;
}

/**
 * Which slots a question's record holds, kept beside it in the same transactions: a run learns
 * what is missing without deserializing the samples themselves.
 */
export interface StoredQuestionSlots {
  key: string;
  slots: string[];
}

/** The stage cache's records: their shapes are the port's (model/stage-cache.ts). */
export type { StoredClustering, StoredGrade } from '../model/stage-cache';

/** A person's grade for one question of one model in one run, kept apart from computed grades. */
export interface StoredGradeOverride {
  runId: string;
  model: string;
  questionId: string;
  grade: Grade;
  at: string;
}

export interface StoredEmbedding {
  model: string;
  text: string;
  vector: Float32Array;
}

/** A file (or listing) read from the Hugging Face hub, under its URL (never with a token). */
export interface StoredHubFile {
  url: string;
  bytes: Uint8Array;
  storedAt: number;
}

/** One natural-language-inference decision: does the premise entail the hypothesis, under one model. */
export interface StoredEntailment {
  /** Hash of (NLI model, question, premise, hypothesis). */
  key: string;
  /** The model's top label (one of NLI_LABELS, model/entailment-cache.ts). */
  label: string;
  storedAt: number;
}

export interface StoredReport {
  runId: string;
  document: ReportDocument;
  savedAt: string;
}

export interface SemeceDB extends DBSchema {
  questionSamples: { key: string; value: StoredQuestionSamples };
  questionSlots: { key: string; value: StoredQuestionSlots };
  runs: { key: string; value: StoredRun; indexes: { byCreated: string } };
  /** The questions of each run, apart from its record (StoredRun). */
  runQuestions: { key: string; value: StoredRunQuestions };
  clusterings: { key: string; value: StoredClustering };
  grades: { key: string; value: StoredGrade };
  gradeOverrides: { key: [string, string, string]; value: StoredGradeOverride; indexes: { byRun: string } };
  embeddings: { key: [string, string]; value: StoredEmbedding };
  /** The document keeps its own version (model/report.ts REPORT_VERSION). */
  reports: { key: string; value: StoredReport };
  hubFiles: { key: string; value: StoredHubFile };
  /** Entailment decisions of the entailment clusterer, one per ordered pair of answers. */
  entailment: { key: string; value: StoredEntailment };
  /** A run's model's usage receipts added up (model/sample-cache.ts UsageReceipt), written with its samples. */
  usage: { key: string; value: UsageTotals & { key: string } };
  /** A person's audit of a report (issue 30), by the report's id: plan, partitions and grades, other people's lines. */
  audits: { key: string; value: AuditRecord };
  /** Batches submitted to a provider's batch service and not yet collected, by (run, batch id): ids and counts, never a key. */
  pendingBatches: { key: [string, string]; value: PendingBatch; indexes: { byRun: string } };
  /** Small values by name: the price table, keys the user chose to remember. */
  settings: { key: string; value: unknown };
}
