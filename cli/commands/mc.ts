/**
 * `semece mc`: the ConfidenceBench-style baseline on a multiple-choice dataset — repeated runs of
 * the stated-probability prompt, Brier score (mean ± sample SD over runs) beside the uniform-guess
 * reference, accuracy, per category, fallbacks; plus the logprob signal when the provider has it,
 * and with --samples N also Sem-ECE on the same questions with every signal compared.
 *
 * Per-run rows go to --out (JSONL, one row per question per run); the summary is printed as JSON.
 * With --cache FILE every reply is kept in FILE (JSONL, the sample cache of `semece sample`), so
 * the same command repeated, or resumed after an interruption, requests only the replies it lacks.
 * The API key is read from the preset's environment variable (or SEMECE_API_KEY), never from the
 * command line, and never printed or written. Exit codes (cli/exit-codes.ts): 0 done, 1 the run
 * failed or an output file cannot be written, 2 bad usage or input.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { toJson } from '../json';
import { readDataset } from '../../src/formats/datasets';
import { createProvider, getPreset } from '../../src/providers/create-provider';
import type { McQuestion } from '../../src/multiple-choice/prompt';
import { toMcQuestions } from '../../src/multiple-choice/mc-questions';
import { MC_DEFAULTS, type McRunOptions } from '../../src/multiple-choice/stated-probability-run';
import { executeMultipleChoiceRun, type McModelResults } from '../../src/multiple-choice/job';
import { MemoryRunRepository } from '../../src/model/run-repository';
import { newRun } from '../../src/pipeline/runner';
import { UNREACHABLE_KIND } from '../../src/pipeline/unreachable';
import { keyId, type RunSpec } from '../../src/model/run-spec';
import type { ProviderConfig } from '../../src/model/provider';
import { summarizeComparison } from '../../src/pipeline/signal-comparison-summary';
import { SIGNAL_LABEL } from '../../src/model/signals';
import { reportJsonFile } from '../../src/formats/report-export';
import { leftOutNote } from '../../src/formats/report-limits';
import { resolveIo, writeFileAtomic, type Io } from '../command-io.ts';
import { EXIT, EXIT_CODES_HELP } from '../exit-codes.ts';
import { withOutputs } from '../output-guard.ts';
import { reportSource } from '../report-paths.ts';
import { stoppedLine } from '../provider-stop.ts';
import { JsonlSampleCache } from '../jsonl-sample-cache.ts';
import { baseUrlOption } from '../provider-options.ts';

export const USAGE = `usage: semece mc --provider PRESET --model MODEL --dataset FILE [options]
  --base-url URL       API base URL (default: the preset's)
  --runs N             repeated runs (default 3)
  --seed N             run r uses seed N + r for fallback letters (default 0)
  --temperature T      sampling temperature (default 1)
  --max-tokens N       reply length limit (default 400)
  --no-logprobs        do not ask for token log-probabilities
  --samples N          also Sem-ECE with N samples per question (default 0: off)
  --concurrency N      requests in flight (default 8)
  --cache FILE         keep every reply in FILE (JSONL); a repeated command reads them back
                       instead of asking again
  --out FILE           per-run rows as JSONL
  --sem-out FILE       Sem-ECE rows (clustered + graded + signals) as JSONL
  --report FILE        a report document the app's Open report page opens (the stated-probability
                       baseline, and the Sem-ECE rows when --samples > 0)
The key is read from the preset's environment variable (e.g. OPENAI_API_KEY) or SEMECE_API_KEY.
${EXIT_CODES_HELP}`;

/** One JSON value per line or document, NaN as null (cli/json.ts). */
function json(value: unknown, indent?: number): string {
  return toJson(value, { pretty: indent !== undefined });
}

function intArg(v: string | undefined, name: string, dflt: number, min: number): number {
  if (v === undefined) return dflt;
  const n = Number(v);
  if (!Number.isInteger(n) || n < min) throw new Error(`--${name} must be an integer ≥ ${min}, got ${JSON.stringify(v)}`);
  return n;
}

function numArg(v: string | undefined, name: string, dflt: number): number {
  if (v === undefined) return dflt;
  const n = Number(v);
  if (!Number.isFinite(n) || n < 0) throw new Error(`--${name} must be a non-negative number, got ${JSON.stringify(v)}`);
  return n;
}

export default async function run(argv: string[], io: Io = {}): Promise<number> {
  const { out, err, env } = resolveIo(io);
  let a;
  let settings: McRunOptions & { samples: number; concurrency: number };
  try {
    a = parseArgs({
      args: argv,
      options: {
        provider: { type: 'string' }, 'base-url': { type: 'string' }, model: { type: 'string' }, dataset: { type: 'string' },
        runs: { type: 'string' }, seed: { type: 'string' }, temperature: { type: 'string' }, 'max-tokens': { type: 'string' },
        'no-logprobs': { type: 'boolean' }, samples: { type: 'string' }, concurrency: { type: 'string' },
        out: { type: 'string' }, 'sem-out': { type: 'string' }, report: { type: 'string' }, cache: { type: 'string' }, help: { type: 'boolean' },
      },
      strict: true,
    }).values;
    if (a.help) {
      out(USAGE);
      return EXIT.ok;
    }
    for (const name of ['provider', 'model', 'dataset'] as const) if (!a[name]) throw new Error(`--${name} is required`);
    settings = {
      runs: intArg(a.runs, 'runs', MC_DEFAULTS.runs, 1),
      seed: intArg(a.seed, 'seed', MC_DEFAULTS.seed, 0),
      temperature: numArg(a.temperature, 'temperature', MC_DEFAULTS.temperature),
      maxTokens: intArg(a['max-tokens'], 'max-tokens', MC_DEFAULTS.maxTokens, 1),
      logprobs: !a['no-logprobs'],
      samples: intArg(a.samples, 'samples', 0, 0),
      concurrency: intArg(a.concurrency, 'concurrency', 8, 1),
    };
  } catch (e) {
    err(`semece mc: ${(e as Error).message}\n${USAGE}`);
    return EXIT.badInput;
  }
  const files = {
    outputs: [{ flag: '--out', file: a.out }, { flag: '--sem-out', file: a['sem-out'] }, { flag: '--report', file: a.report }],
    // The cache is read too: an output over it would destroy the replies it keeps.
    inputs: [{ flag: '--dataset', file: a.dataset }, { flag: '--cache', file: a.cache }],
  };
  return withOutputs('mc', files, err, async () => {
    const preset = getPreset(a.provider!);
    if (!preset) {
      err(`semece mc: unknown provider ${JSON.stringify(a.provider)}`);
      return EXIT.badInput;
    }
    if (preset.kind === 'in-browser') {
      // The stated-probability baseline asks an API for one letter and its logprobs; the in-page model is offered for Sem-ECE sampling.
      err('semece mc: --provider in-browser samples open answers only (semece sample); the multiple-choice baseline needs a model behind an API');
      return EXIT.badInput;
    }
    let text: Uint8Array;
    try {
      text = await readFile(a.dataset!);
    } catch (e) {
      err(`semece mc: cannot read the dataset ${a.dataset}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
      return EXIT.badInput;
    }
    const read = readDataset(text, a.dataset!);
    if (!read.ok) {
      err(`semece mc: ${read.error.where ? read.error.where + ': ' : ''}${read.error.message}`);
      return EXIT.badInput;
    }
    const mc = toMcQuestions(read.value.dataset.questions);
    const questions: McQuestion[] = mc.questions;
    const skipped = [...read.value.skipped, ...mc.skipped];
    for (const s of skipped) err(`skipped ${s.where}: ${s.reason}`);
    if (questions.length === 0) {
      err('semece mc: the dataset has no usable multiple-choice question (each needs 2 to 10 options and a gold letter or option text)');
      return EXIT.badInput;
    }

    const apiKey = (preset.keyEnv ? env[preset.keyEnv] : undefined) ?? env.SEMECE_API_KEY;
    if (preset.needsKey && !apiKey) {
      err(`semece mc: no API key: set ${preset.keyEnv ?? 'SEMECE_API_KEY'}`);
      return EXIT.badInput;
    }
    let baseUrl: string;
    try {
      baseUrl = baseUrlOption(a['base-url'], preset);
    } catch (e) {
      // A bad address is bad usage (exit 2), as in every other command, not a failed run.
      err(`semece mc: ${(e as Error).message}`);
      return EXIT.badInput;
    }
    // The run is the app's multiple-choice phases (multiple-choice/job.ts) over one run lifecycle,
    // its record held in memory and its replies in the --cache file: no orchestration of its own.
    const model = { kind: preset.kind, preset: preset.id, baseUrl, model: a.model!, concurrency: settings.concurrency };
    const spec: RunSpec = {
      title: `Multiple choice: ${a.model} on ${path.basename(read.value.dataset.name)}`,
      dataset: { name: path.basename(read.value.dataset.name), source: reportSource(a.dataset!), questions: read.value.dataset.questions },
      models: [model],
      sampling: { n: 1, temperature: settings.temperature, maxTokens: settings.maxTokens, prompt: '{question}', concurrency: settings.concurrency },
      clustering: { method: 'exact' },
      grading: { method: 'alias' },
      mc: { runs: settings.runs, seed: settings.seed, samples: settings.samples, logprobs: settings.logprobs },
    };
    let samples: JsonlSampleCache | undefined;
    if (a.cache) {
      samples = await new JsonlSampleCache(a.cache).load();
      if (samples.damagedLines > 0) err(`${samples.path}: dropped ${samples.damagedLines} unreadable line(s) left by a write cut short; those replies are requested again.`);
      if (samples.size > 0) err(`${samples.size} reply(ies) already in ${samples.path}: only the missing ones are requested`);
    }
    // Only with --cache does a repeated command resume; without it a stop keeps nothing.
    const kept = a.cache ? { what: 'Replies', path: a.cache } : undefined;
    const runs = new MemoryRunRepository();
    const record = newRun(spec);
    await runs.saveRun(record);
    let results: McModelResults | undefined;
    const deps = { runs, samples, provider: (c: ProviderConfig) => createProvider(c, io.providerDeps), label: () => a.model!, onModel: (r: McModelResults) => (results = r) };
    const ended = await executeMultipleChoiceRun(record.id, apiKey ? { [keyId(model)]: apiKey } : {}, deps, io.signal ?? new AbortController().signal);
    if (ended.status !== 'done' || !results) {
      const e = ended.error;
      // A server that cannot be reached is not the user's input to fix: what arrived is kept and
      // the same command, once the server is back, carries on (exit 3, as in semece sample).
      if (e?.kind === UNREACHABLE_KIND && kept) {
        err(`semece mc: stopped: ${e.message.trim().replace(/\.$/, '')}. ${kept.what} so far are kept in ${kept.path}; run the same command again to resume.`);
        return EXIT.partial;
      }
      if (!e) {
        err(`semece mc: interrupted (${ended.status}).${kept ? ` ${kept.what} so far are kept in ${kept.path}; repeat the command to resume.` : ''}`);
        return EXIT.partial;
      }
      err(stoppedLine('mc', `${e.message} (${e.kind}, at ${e.where})`, kept));
      return EXIT.failed;
    }
    const r = results.baseline;
    const semResult = results.sem;
    if (a.out) {
      const rows = r.rows.map((row) => json({ model: a.model, ...row })).join('\n') + '\n';
      try {
        await writeFileAtomic(a.out, rows);
      } catch (e) {
        err(`semece mc: cannot write ${a.out}: ${(e as Error).message}`);
        out(json({ rows: r.rows }));
        return EXIT.failed;
      }
    }
    let semEce: unknown;
    if (semResult) {
      const s = semResult;
      if (a['sem-out']) {
        const lines = s.questions.map((q) => json({ ...q.clustered, grade: q.graded.grade, Y: q.graded.Y, signals: q.signals })).join('\n') + '\n';
        await writeFileAtomic(a['sem-out'], lines);
      }
      // The signal comparison the score stage made once for the run's report (not a second bootstrap here).
      const comparison = (await runs.getReport(record.id))?.models[0]?.metrics.comparison;
      semEce = {
        samples: settings.samples,
        accuracy: s.accuracy,
        noOption: s.noOption,
        failedSamples: s.failedSamples,
        verdict: comparison ? summarizeComparison(comparison, SIGNAL_LABEL).headline : null,
        comparison: comparison ?? null,
        logprobAbsent: s.logprobAbsent,
      };
    }
    if (a.report) {
      const doc = (await runs.getReport(record.id))!;
      // At the most detail the app opens (raw replies, then samples, left out past MAX_REPORT_BYTES).
      const file = reportJsonFile(doc);
      if (!file.ok) {
        err(`semece mc: cannot write the report ${a.report}: ${file.error.message}`);
        return EXIT.failed;
      }
      if (file.value.leftOut !== 'nothing') err(`semece mc: the report ${a.report}: ${leftOutNote(file.value.leftOut)}`);
      try {
        await writeFileAtomic(a.report, file.value.text);
      } catch (e) {
        err(`semece mc: cannot write the report ${a.report}: ${(e as Error).message}`);
        return EXIT.failed;
      }
    }
    out(
      json(
        {
          model: a.model,
          provider: preset.id,
          dataset: read.value.dataset.name,
          ...r.summary,
          questions: questions.length,
          skipped,
          settings: { ...settings, effective: r.effective },
          logprob: r.logprob,
          notes: r.notes,
          ...(semEce ? { semEce } : {}),
        },
        2,
      ),
    );
    return EXIT.ok;
  });
}
