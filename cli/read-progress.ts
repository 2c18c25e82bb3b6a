/**
 * What `semece sample --batch read` says on stderr while it reads a long result file: a line each
 * time the bytes read pass a further tenth of the file (10% … 90%), none for a file read in one
 * go. By bytes, not by time, so the same file always gives the same lines.
 */
export function readProgress(file: string, size: number): (bytesRead: number, p: { lines: number; stored: number }) => string | undefined {
  let said = 0;
  return (bytesRead, p) => {
    const tenth = size > 0 ? Math.floor((10 * Math.min(bytesRead, size)) / size) : 10;
    if (tenth <= said || tenth >= 10) return undefined;
    said = tenth;
    return `${file}: ${tenth * 10}% read, ${p.lines} line(s), ${p.stored} sample(s) stored`;
  };
}
