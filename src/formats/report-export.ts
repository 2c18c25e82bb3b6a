/**
 * Exports of a report document: the document itself as JSON (what Open report and the share
 * link read back) and the per-question rows as CSV for spreadsheets. Charts as SVG/PNG belong
 * to the chart components.
 */
import type { ReportDocument } from '../model/report';
import { EXTRA_SIGNALS, PAPER_SIGNALS } from '../model/signals';
import { fitReportLimits, fitReportSize, type FittedReportText } from './report-limits';
import type { Result } from '../model/rows';
import { toCsv, type CsvValue } from './csv';

/**
 * The document as JSON text. NaN (an undefined statistic) becomes null, which parseReport reads
 * back as NaN; compact by default because reports with samples get large. Text longer than the
 * reader accepts (a model's very long reply) is cut with a marker (report-limits.ts), so the file
 * always opens again; the JSON and HTML exports and share links all come through here.
 */
export function reportToJson(doc: ReportDocument, { pretty = false }: { pretty?: boolean } = {}): string {
  return JSON.stringify(fitReportLimits(doc), null, pretty ? 2 : undefined);
}

/**
 * The JSON file of a report: reportToJson at the most detail that stays within MAX_REPORT_BYTES
 * (raw replies, then samples and classes are left out when they must be), with what was left out,
 * or why even the smallest form does not fit. Every JSON file the app writes comes through here.
 */
export function reportJsonFile(doc: ReportDocument, { pretty = false, limit }: { pretty?: boolean; limit?: number } = {}): Result<FittedReportText> {
  return fitReportSize(doc, (d) => reportToJson(d, { pretty }), limit);
}

/** Column names of the per-question CSV, in order: the signals table's, extra signals only when some row has them. */
export function csvColumns(doc: ReportDocument): string[] {
  const extra = EXTRA_SIGNALS.filter((s) => doc.models.some((m) => m.questions.some((q) => q.signals?.[s] !== undefined)));
  return [
    'model',
    'provider',
    'id',
    'question',
    'gold',
    'modal_label',
    'grade',
    'correct',
    'overridden',
    'n',
    'n_classes',
    ...PAPER_SIGNALS,
    ...extra,
    'margin',
    'std_margin',
    'regime',
    'entropy',
  ];
}

/**
 * One row per model × question with every signal. Numbers are written in full (JS shortest
 * round-trip form), so a spreadsheet sees the report's exact values. Text cells that start like
 * a spreadsheet formula are prefixed with an apostrophe by the CSV writer (csv.ts), so opening
 * the file cannot run anything.
 */
/**
 * Decimals of the per-question CSV's numbers: enough for any table or plot, short enough to read
 * in a spreadsheet. The JSON export keeps every number at full precision.
 */
export const CSV_DECIMALS = 6;

/** A number rounded to CSV_DECIMALS (a whole number stays whole; NaN stays NaN, an empty cell). */
function rounded(x: number): number {
  return Number.isFinite(x) ? Number(x.toFixed(CSV_DECIMALS)) : x;
}

export function reportToCsv(doc: ReportDocument): string {
  const fields = csvColumns(doc);
  const data = doc.models.flatMap((m) =>
    m.questions.map((q) => {
      const row: Record<string, CsvValue> = {
        model: m.model,
        provider: m.provider ?? '',
        id: q.id,
        question: q.question,
        gold: q.gold,
        modal_label: q.modalLabel,
        grade: q.grade,
        correct: q.correct,
        overridden: q.overridden ? 1 : 0,
        n: q.n,
        n_classes: q.nClasses,
        margin: rounded(q.margin),
        std_margin: rounded(q.stdMargin),
        regime: q.regime,
        entropy: rounded(q.entropy),
      };
      for (const s of PAPER_SIGNALS) row[s] = rounded(q[s]);
      for (const s of EXTRA_SIGNALS) {
        if (fields.includes(s)) row[s] = q.signals?.[s] === undefined ? '' : rounded(q.signals[s]!);
      }
      return fields.map((f) => row[f]);
    }),
  );
  return toCsv(fields, data);
}

/** A file name from the report's title and date, safe on every file system. */
export function reportFileName(doc: ReportDocument, ext: string): string {
  const slug =
    doc.title
      .normalize('NFKD')
      .replace(/[^\w\s-]/g, '')
      .trim()
      .replace(/[\s_]+/g, '-')
      .toLowerCase()
      .slice(0, 60) || 'report';
  const day = /^\d{4}-\d{2}-\d{2}/.exec(doc.createdAt)?.[0] ?? '';
  return `semece-${slug}${day ? `-${day}` : ''}.${ext}`;
}
