/**
 * How far opening a report has got (a share link or a report file), in the one shape the import
 * worker reports and the pages show: the phase, and where the phase can count, how much of how
 * much (bytes while reading or inflating, rows while validating).
 */
import { progressPercent, type OnProgress, type Progress } from '../model/progress';

export type ImportPhase = 'reading' | 'inflating' | 'parsing' | 'validating';

/** The model's one progress shape (model/progress.ts), in bytes while reading or inflating, rows while validating. */
export type ImportProgress = Progress<ImportPhase>;

export type OnImportProgress = OnProgress<ImportProgress>;

const PHASE_TEXT: Record<ImportPhase, string> = {
  reading: 'reading the file',
  inflating: 'unpacking the link',
  parsing: 'parsing',
  validating: 'checking',
};

function size(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

/** "reading the file, 40%", "parsing 3.2 MB", "checking 177,000 rows": the words the status line shows. */
export function describeImportProgress(p: ImportProgress): string {
  const phase = PHASE_TEXT[p.phase];
  if (p.total === undefined || p.total <= 0) return phase;
  if (p.unit === 'rows') return `${phase} ${p.total.toLocaleString('en')} rows`;
  if (p.done === undefined) return `${phase} ${size(p.total)}`;
  return `${phase}, ${progressPercent(p)}%`;
}
