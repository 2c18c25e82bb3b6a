/**
 * The page's storage, served by the run worker (the one owner of IndexedDB): saved reports,
 * grade overrides, audits in progress, keys the user chose to remember, the price table. Every answer is a Result,
 * and a stored record that cannot be read comes back as an error naming it and what is wrong.
 */
import type { Stores } from '../store/stores';
import { storageUsed } from '../store/settings';
import type { StorageApi } from './protocol';
import { errorInfo } from '../model/app-error';
import type { Result } from '../model/rows';
import { questionSamples, type QuestionSamples } from '../pipeline/question-samples';
import { verifyFromCaches, type CacheVerifyOutcome } from '../pipeline/cache-verify';
import { DEFAULT_MODEL_HUB } from '../model/model-hub';

export function createStorageApi(stores: () => Promise<Stores>): StorageApi {
  /** Runs `work` on the stores; a throw becomes a Result error with `doing` as its place. */
  async function attempt<T>(doing: string, work: (s: Stores) => Promise<T>): Promise<Result<T>> {
    try {
      return { ok: true, value: await work(await stores()) };
    } catch (e) {
      return { ok: false, error: errorInfo(e, doing) };
    }
  }
  const done = <T>(p: Promise<T>) => p.then(() => true as const);

  return {
    getReport: (id) => attempt('reading a saved report', async (s) => (await s.runs.getReport(id)) ?? null),
    saveReport: (id, document) => attempt('saving the report', (s) => done(s.runs.saveReport(id, document))),
    listSavedReports: () => attempt('listing saved reports', (s) => s.runs.listReportsWithoutRun()),
    // A report's audit goes with it (deleteRun, run-worker-api.ts, does the same for a run's report).
    deleteReport: (id) => attempt('deleting the report', async (s) => done(Promise.all([s.runs.deleteReport(id), s.audits.deleteAudit(id)]))),
    saveGradeOverride: (override, document) =>
      attempt('saving the override', async (s) => {
        await s.runs.setGradeOverride(override);
        await s.runs.saveReport(override.runId, document);
        return true as const;
      }),
    questionSamples: (reportId, model, questionId) =>
      attempt('reading the question\'s samples', async (s): Promise<QuestionSamples> => {
        const run = await s.runs.getRun(reportId);
        if (!run) return { found: false, why: 'the run that made this report is not in this browser (a report file or share link keeps only what it holds)' };
        return questionSamples(run.spec, model, questionId, { samples: s.samples, clusterings: s.stages });
      }),
    verifyFromCache: (reportId) =>
      attempt("checking the report against this browser's cache", async (s): Promise<CacheVerifyOutcome> => {
        const [run, report] = await Promise.all([s.runs.getRun(reportId), s.runs.getReport(reportId)]);
        if (!run || !report) return { kind: 'error', message: 'The run that made this report is not in this browser, so there is no cache to check it against.' };
        return verifyFromCaches(report, run.spec, { samples: s.samples, clusterings: s.stages });
      }),
    getAudit: (reportId) => attempt('reading the audit', async (s) => (await s.audits.getAudit(reportId)) ?? null),
    saveAudit: (record) => attempt('saving the audit', (s) => done(s.audits.saveAudit(record))),
    deleteAudit: (reportId) => attempt('deleting the audit', (s) => done(s.audits.deleteAudit(reportId))),
    rememberedKeys: () => attempt('reading remembered keys', (s) => s.settings.rememberedKeys()),
    rememberKey: (keyId, key) => attempt('remembering the key', (s) => done(s.settings.rememberKey(keyId, key))),
    forgetKey: (keyId) => attempt('forgetting the key', (s) => done(s.settings.forgetKey(keyId))),
    getPrices: () => attempt('reading the price table', async (s) => (await s.settings.getPriceTable()) ?? null),
    getModelHub: () => attempt('reading the model hub address', async (s) => (await s.settings.getModelHub()) ?? DEFAULT_MODEL_HUB),
    setModelHub: (hub) => attempt('saving the model hub address', (s) => done(s.settings.setModelHub(hub))),
    // The estimate needs no database connection: asked here because the page leaves storage to this worker.
    async storageUsed() {
      try {
        return { ok: true, value: await storageUsed() };
      } catch (e) {
        return { ok: false, error: errorInfo(e, 'reading storage use') };
      }
    },
  };
}
