/**
 * `semece verify`: recompute a report from the rows it claims to come from and compare every number, grade, class, sample and manifest hash.
 *
 * Reads the report (as Open report does) and the clustered + graded JSONL, scores the rows with
 * the report's own settings (pipeline/report-verify.ts) and prints each difference (where, what
 * the report has, what the rows give) on stdout. A grade a person overrode in the report is no
 * difference: the rows are scored with it and it is listed as an override. Exit codes (cli/exit-codes.ts): 0 everything
 * matches; 1 some number or hash differs (the report is not what these rows give: "failed");
 * 2 bad usage or input (unreadable report, bad rows, rows of none of the report's models).
 */
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { readAuthorsRows } from '../../src/formats/authors-rows.ts';
import { parseReport } from '../../src/formats/report-import.ts';
import { differenceLines, overrideLines, verifyReport } from '../../src/pipeline/report-verify.ts';
import { resolveIo, type Io } from '../command-io.ts';
import { EXIT, EXIT_CODES_HELP } from '../exit-codes.ts';
import { inputText } from '../input-text.ts';
import type { JsonlText } from '../../src/formats/jsonl-rows.ts';

export const USAGE = `usage: semece verify REPORT.json --clustered FILE --graded FILE
Recomputes the report's numbers from the clustered and graded rows with the report's own
settings, and its manifest's hashes (each question's samples, classes and grade; the settings),
and prints every difference: where, what the report has, what the rows give. A grade a
person overrode in the report is scored as the report has it and listed as an override, not
as a difference.
Exit codes: 0 everything matches; 1 something differs; 2 bad input (flags, unreadable or
invalid files, rows of none of the report's models).
(${EXIT_CODES_HELP.replace(/\n/g, ' ')})`;

async function text(file: string, flag: string): Promise<JsonlText> {
  try {
    return await inputText(file);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new Error(`cannot read ${flag} ${file}: ${code === 'ENOENT' ? 'no such file' : (e as Error).message}`);
  }
}

export default async function run(argv: string[], io: Io = {}): Promise<number> {
  const { out, err } = resolveIo(io);
  let a;
  try {
    a = parseArgs({
      args: argv,
      options: { clustered: { type: 'string' }, graded: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
      strict: true,
      allowPositionals: true,
    });
  } catch (e) {
    err(`semece verify: ${(e as Error).message}\n\n${USAGE}`);
    return EXIT.badInput;
  }
  if (a.values.help) {
    out(USAGE);
    return EXIT.ok;
  }
  const [reportFile, ...rest] = a.positionals;
  if (!reportFile || rest.length > 0 || !a.values.clustered || !a.values.graded) {
    err(`semece verify: give one REPORT.json and both --clustered FILE and --graded FILE\n\n${USAGE}`);
    return EXIT.badInput;
  }
  const { clustered, graded } = a.values;
  let reportText: string;
  let rowsText: [JsonlText, JsonlText];
  try {
    reportText = await readFile(reportFile, 'utf8').catch((e: NodeJS.ErrnoException) => {
      throw new Error(`cannot read ${reportFile}: ${e.code === 'ENOENT' ? 'no such file' : e.message}`);
    });
    rowsText = [await text(clustered, '--clustered'), await text(graded, '--graded')];
  } catch (e) {
    err(`semece verify: ${(e as Error).message}`);
    return EXIT.badInput;
  }
  const report = parseReport(reportText);
  if (!report.ok) {
    err(`semece verify: ${reportFile}: ${report.error.message}`);
    return EXIT.badInput;
  }
  const rows = readAuthorsRows({ text: rowsText[0], file: clustered }, { text: rowsText[1], file: graded });
  if (!rows.ok) {
    err(`semece verify: ${rows.error.message}`);
    return EXIT.badInput;
  }
  const result = await verifyReport(report.value, rows.value);
  if ('error' in result) {
    err(`semece verify: ${result.error}`);
    return EXIT.badInput;
  }
  const hashes = report.value.manifest ? 'numbers and manifest hashes' : 'numbers (the report has no manifest)';
  const overridden = result.overrides.length > 0 ? ` with ${result.overrides.length} grade(s) overridden by hand` : '';
  if (result.differences.length === 0) out(`semece verify: ${reportFile} matches: ${result.checked} questions of ${result.model}, every ${hashes} recomputed from the rows${overridden}`);
  else {
    out(`semece verify: ${reportFile} differs from what the rows give in ${result.differences.length} places (${result.model}${overridden}):`);
    for (const line of differenceLines(result.differences)) out(`  ${line}`);
  }
  if (result.overrides.length > 0) {
    out(`overrides (a person's grade, scored as the report has it):`);
    for (const line of overrideLines(result.overrides)) out(`  ${line}`);
  }
  return result.differences.length === 0 ? EXIT.ok : EXIT.failed;
}
