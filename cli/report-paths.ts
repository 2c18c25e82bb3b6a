/**
 * How an input file is named inside a report document: a report is shared and opened on other
 * machines, so it never carries an absolute path (a home folder, a user name). A file under the
 * working folder is named by its path from there; any other by its base name.
 */
import path from 'node:path';

export function reportSource(file: string, cwd = process.cwd()): string {
  const relative = path.relative(cwd, path.resolve(cwd, file));
  if (relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative)) return relative.split(path.sep).join('/');
  return path.basename(file);
}
