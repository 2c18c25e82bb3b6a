/**
 * The demo report as the build writes it (demo/report.json beside the app) and the first page
 * reads it: the report document as JSON, with every number JSON cannot hold (NaN for an undefined
 * statistic, −0, ±Infinity) listed by its path, so the page gets back the very document the build
 * scored, bit for bit. A module with no heavy imports: the first page loads it.
 *
 * Unlike a report file from anywhere, this one comes from the app's own build, so it is not run
 * through the report schema (which the first page would otherwise have to load): its envelope is
 * checked, and a broken file is refused with a message saying what is wrong.
 */
import type { ReportDocument } from '../model/report';
import type { Result, StageError } from '../model/rows';

/** Where the build writes the demo report, relative to the app's base URL. */
export const DEMO_REPORT_FILE = 'demo/report.json';
export const DEMO_REPORT_FORMAT = 'semece-demo-report';
export const DEMO_REPORT_FILE_VERSION = 1;

type Special = 'NaN' | '-0' | 'Infinity' | '-Infinity';
type Path = (string | number)[];

interface DemoReportEnvelope {
  format: typeof DEMO_REPORT_FORMAT;
  version: typeof DEMO_REPORT_FILE_VERSION;
  /** Paths of the numbers JSON cannot write, with what each one is. */
  special: [Path, Special][];
  report: unknown;
}

function specialOf(x: number): Special | null {
  if (Number.isNaN(x)) return 'NaN';
  if (x === Infinity) return 'Infinity';
  if (x === -Infinity) return '-Infinity';
  if (Object.is(x, -0)) return '-0';
  return null;
}

const VALUE: Record<Special, number> = { NaN: NaN, '-0': -0, Infinity: Infinity, '-Infinity': -Infinity };

/** The document as the demo report file's text. */
export function encodeDemoReport(doc: ReportDocument): string {
  const special: [Path, Special][] = [];
  const walk = (v: unknown, path: Path) => {
    if (typeof v === 'number') {
      const s = specialOf(v);
      if (s) special.push([path.slice(), s]);
    } else if (Array.isArray(v)) {
      v.forEach((x, i) => walk(x, [...path, i]));
    } else if (v && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) walk(x, [...path, k]);
    }
  };
  walk(doc, []);
  const envelope: DemoReportEnvelope = { format: DEMO_REPORT_FORMAT, version: DEMO_REPORT_FILE_VERSION, special, report: doc };
  return JSON.stringify(envelope);
}

function fail(message: string): { ok: false; error: StageError } {
  return { ok: false, error: { kind: 'demo', message, where: DEMO_REPORT_FILE } };
}

/** The document back from the file's text, special numbers restored; a broken file is refused. */
export function decodeDemoReport(text: string): Result<ReportDocument> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    return fail(`The demo report is not valid JSON: ${(err as Error).message}`);
  }
  const e = parsed as Partial<DemoReportEnvelope> | null;
  if (!e || typeof e !== 'object' || e.format !== DEMO_REPORT_FORMAT) return fail(`The demo report file is not a ${DEMO_REPORT_FORMAT} file.`);
  if (e.version !== DEMO_REPORT_FILE_VERSION) return fail(`The demo report file is version ${String(e.version)}; this app reads version ${DEMO_REPORT_FILE_VERSION}.`);
  const report = e.report as ReportDocument | undefined;
  if (!report || typeof report !== 'object' || !Array.isArray(report.models) || report.models.length === 0) {
    return fail('The demo report file holds no report with models.');
  }
  if (!Array.isArray(e.special)) return fail('The demo report file has no list of special numbers.');
  for (const entry of e.special) {
    const [path, what] = Array.isArray(entry) ? entry : [];
    if (!Array.isArray(path) || path.length === 0 || !(typeof what === 'string' && what in VALUE)) {
      return fail(`The demo report file lists a special number it cannot read: ${JSON.stringify(entry)}.`);
    }
    // Own properties only, every step of the way, so no path can reach a prototype; JSON wrote
    // NaN and ±Infinity as null and −0 as 0, so only those may be replaced.
    let at: unknown = report;
    for (const key of path.slice(0, -1)) at = at && typeof at === 'object' && Object.hasOwn(at, key) ? (at as Record<string | number, unknown>)[key] : undefined;
    const last = path[path.length - 1];
    if (!at || typeof at !== 'object' || !Object.hasOwn(at, last) || ![null, 0].includes((at as Record<string | number, unknown>)[last] as null)) {
      return fail(`The demo report file lists a special number at ${path.join('.')}, which it does not hold.`);
    }
    (at as Record<string | number, unknown>)[last] = VALUE[what as Special];
  }
  return { ok: true, value: report };
}
