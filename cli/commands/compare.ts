/**
 * `semece compare`: paired differences between reports on the questions they share, or a leaderboard of many, from report files.
 *
 * Reads report documents (the app's "Save report" files or `semece score --report` files); each
 * model of each report is one entry. Prints, as one JSON document (NaN written as null), every
 * pair's differences B − A with paired bootstrap intervals and Holm-adjusted p-values
 * (pipeline/report-comparison.ts), or with --leaderboard the entries ranked by one signal's ECE
 * (pipeline/leaderboard.ts). --format gives tables for people instead.
 * Exit codes (cli/exit-codes.ts): 0 done; 2 bad usage, an unreadable or invalid file (named, with
 * what is wrong), or fewer than two entries.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { parseReport } from '../../src/formats/report-import.ts';
import { headlineMarkdown, type HeadlineTable } from '../../src/formats/headline-table.ts';
import { METRICS, type MetricKey } from '../../src/model/metrics.ts';
import { MAX_BOOTSTRAP_B } from '../../src/model/scoring-limits.ts';
import { SIGNAL_NAMES, type SignalName } from '../../src/model/signals.ts';
import type { ReportDocument } from '../../src/model/report.ts';
import { compareEntries } from '../../src/pipeline/report-alignment.ts';
import { compareReports, DEFAULT_COMPARED_METRICS, defaultComparisonB } from '../../src/pipeline/report-comparison.ts';
import { comparisonLatex, comparisonMarkdown, comparisonPreamble, comparisonTable } from '../../src/pipeline/report-comparison-table.ts';
import { leaderboard } from '../../src/pipeline/leaderboard.ts';
import { leaderboardCaption, leaderboardCsv, leaderboardLatex, leaderboardMarkdown, leaderboardTable } from '../../src/pipeline/leaderboard-export.ts';
import { toJson } from '../json.ts';
import { resolveIo, type Io } from '../command-io.ts';
import { EXIT, EXIT_CODES_HELP } from '../exit-codes.ts';

const FORMATS = ['json', 'table', 'markdown', 'latex', 'csv'] as const;
type Format = (typeof FORMATS)[number];

export const USAGE = `usage: semece compare A.json B.json [C.json …] [options]
  --format F        json (default), table, markdown or latex; csv with --leaderboard
  --leaderboard     rank the entries by one signal's ECE instead of comparing pairs
  --signal S        the leaderboard's signal (default sem2): ${SIGNAL_NAMES.join(', ')}
  --metrics LIST    metrics compared per signal, comma-separated keys as semece score prints them
                    (default: ${DEFAULT_COMPARED_METRICS.map((k) => METRICS.find((m) => m.key === k)!.cli).join(', ')};
                    smooth_ece is slow: B × 2 bandwidth searches per signal and pair)
  --B N             bootstrap replicates (default: the largest B of the reports, else 1000)
  --seed N          seed of the bootstrap's default_rng stream (default 7)
  --pretty          indent the JSON
Each model of each report is one entry, named by the model (with the file name when two share a
name). Reports are aligned on the questions they share (id and question text); the others are
listed (only_a, only_b). JSON: {"pairs": [{"a", "b", "shared", "metrics": {"accuracy": {difference,
interval, p, p_adjusted}, "ece": {signal: {difference: b − a, interval: [lo, hi], p, p_adjusted}}, …},
"settings_differ", "warnings", "only_a", "only_b"}], "correction": "holm", "family_size"}; p-values
are Holm-adjusted within each metric across every pair × signal (README.md, "Command line").
--leaderboard JSON: {"signal", "entries": [{"name", "questions", "ece", "ece_interval", "accuracy",
"brier", "auroc", "p_first", "rank", "rank_interval"}], "paired", "B", "seed"}.
${EXIT_CODES_HELP}`;

class UsageError extends Error {}

function intOption(raw: string | undefined, flag: string, min: number, max: number): number | undefined {
  if (raw === undefined) return undefined;
  if (!/^\d+$/.test(raw.trim())) throw new UsageError(`${flag} must be a whole number, got '${raw}'`);
  const v = Number(raw);
  if (v < min || v > max) throw new UsageError(`${flag} must be between ${min} and ${max}, got ${v}`);
  return v;
}

async function readReport(file: string): Promise<ReportDocument> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a directory' : (e as Error).message;
    throw new UsageError(`cannot read ${file}: ${why}`);
  }
  const parsed = parseReport(text);
  if (!parsed.ok) throw new UsageError(`${file} is not a usable report: ${parsed.error.message}${parsed.error.where ? ` (at ${parsed.error.where})` : ''}`);
  return parsed.value;
}

/** Columns padded to their widest cell, for a terminal. */
function plainTable(t: HeadlineTable): string {
  const width = t.header.map((h, i) => Math.max(h.length, ...t.rows.map((r) => r[i].length)));
  return [t.header, ...t.rows].map((r) => r.map((c, i) => c.padEnd(width[i])).join('  ').trimEnd()).join('\n');
}

function metricKeys(raw: string | undefined): readonly MetricKey[] | undefined {
  if (raw === undefined) return undefined;
  return raw.split(',').map((k) => {
    const m = METRICS.find((x) => x.cli === k.trim());
    if (!m) throw new UsageError(`--metrics: unknown metric '${k.trim()}'; known: ${METRICS.map((x) => x.cli).join(', ')}`);
    return m.key;
  });
}

export default async function run(argv: string[], io: Io = {}): Promise<number> {
  const { out, err } = resolveIo(io);
  try {
    let parsed;
    try {
      parsed = parseArgs({
        args: argv,
        options: {
          format: { type: 'string' }, leaderboard: { type: 'boolean' }, signal: { type: 'string' }, metrics: { type: 'string' },
          B: { type: 'string' }, seed: { type: 'string' }, pretty: { type: 'boolean' }, help: { type: 'boolean', short: 'h' },
        },
        strict: true,
        allowPositionals: true,
      });
    } catch (e) {
      throw new UsageError((e as Error).message);
    }
    const a = parsed.values;
    if (a.help) {
      out(USAGE);
      return EXIT.ok;
    }
    const format = (a.format ?? 'json') as Format;
    if (!FORMATS.includes(format)) throw new UsageError(`--format must be one of ${FORMATS.join(', ')}, got '${a.format}'`);
    if (format === 'csv' && !a.leaderboard) throw new UsageError('--format csv is for --leaderboard; a comparison prints json, table, markdown or latex');
    const signal = (a.signal ?? 'sem2') as SignalName;
    if (!SIGNAL_NAMES.includes(signal)) throw new UsageError(`--signal must be one of ${SIGNAL_NAMES.join(', ')}, got '${a.signal}'`);
    const B = intOption(a.B, '--B', 1, MAX_BOOTSTRAP_B);
    const seed = intOption(a.seed, '--seed', 0, Number.MAX_SAFE_INTEGER);
    const metrics = metricKeys(a.metrics);
    const files = parsed.positionals;
    if (files.length === 0) throw new UsageError('give two or more report files (or one holding two or more models)');
    const docs = [];
    for (const file of files) docs.push({ source: path.basename(file), document: await readReport(file) });
    const entries = compareEntries(docs);
    if (entries.length < 2) throw new UsageError(`there is ${entries.length} model in ${files.join(', ')}; comparing needs two or more`);

    if (a.leaderboard) {
      const lb = leaderboard(entries, signal, { B: B ?? defaultComparisonB(entries), seed });
      for (const s of lb.skipped) err(`semece compare: left out of the leaderboard: ${s.name}: ${s.reason}`);
      if (format === 'json') out(toJson(lb, { pretty: a.pretty }));
      else if (format === 'csv') out(leaderboardCsv(lb));
      else if (format === 'markdown') out(leaderboardMarkdown(lb));
      else if (format === 'latex') out(leaderboardLatex(lb));
      else out(`${plainTable(leaderboardTable(lb))}\n\n${leaderboardCaption(lb).replace(/\\%/g, '%')}`);
      return EXIT.ok;
    }
    const c = compareReports(entries, { B, seed, metrics });
    // The settings that differ and the clusterer warning come before any number, on every format.
    for (const p of c.pairs) for (const w of p.warnings) err(`semece compare: warning: ${w}`);
    if (format === 'json') out(toJson(c, { pretty: a.pretty }));
    else if (format === 'markdown') out(comparisonMarkdown(c));
    else if (format === 'latex') out(comparisonLatex(c));
    else out(`${comparisonPreamble(c).join('\n')}\n\n${plainTable(comparisonTable(c))}`);
    return EXIT.ok;
  } catch (e) {
    if (e instanceof UsageError) {
      err(`semece compare: ${e.message}`);
      if (/required|give two/.test(e.message)) err(USAGE);
      return EXIT.badInput;
    }
    throw e;
  }
}
