/**
 * What a command checks before it writes anything: that no --out is one of its inputs (the
 * output would replace the file being read, or be read back half written), and that no other
 * process is writing the same output (cli/output-lock.ts). The work runs while the locks are
 * held, and they are released however it ends.
 */
import { realpath } from 'node:fs/promises';
import path from 'node:path';
import { EXIT } from './exit-codes.ts';
import { lockOutput } from './output-lock.ts';

export interface NamedFile {
  flag: string;
  file: string | undefined;
}

/** The file's real path; for one that does not exist yet, its folder's real path and its name. */
async function realPathOf(file: string): Promise<string> {
  const absolute = path.resolve(file);
  try {
    return await realpath(absolute);
  } catch {
    try {
      return path.join(await realpath(path.dirname(absolute)), path.basename(absolute));
    } catch {
      return absolute;
    }
  }
}

/** Runs `work` holding a lock on every output, or returns the code of the reason it may not. */
export async function withOutputs(
  command: string,
  files: { outputs: NamedFile[]; inputs: NamedFile[] },
  err: (s: string) => void,
  work: () => Promise<number>,
): Promise<number> {
  const outputs = files.outputs.filter((o): o is { flag: string; file: string } => !!o.file);
  const inputs = files.inputs.filter((i): i is { flag: string; file: string } => !!i.file);
  const inputPaths = await Promise.all(inputs.map((i) => realPathOf(i.file)));
  const outputPaths = await Promise.all(outputs.map((o) => realPathOf(o.file)));
  for (const [k, o] of outputs.entries()) {
    const j = inputPaths.indexOf(outputPaths[k]);
    if (j >= 0) {
      err(`semece ${command}: ${o.flag} ${o.file} is the same file as ${inputs[j].flag} ${inputs[j].file}; write the output to another file.`);
      return EXIT.badInput;
    }
    const other = outputPaths.indexOf(outputPaths[k]);
    if (other < k) {
      err(`semece ${command}: ${o.flag} ${o.file} is the same file as ${outputs[other].flag} ${outputs[other].file}; give each output its own file.`);
      return EXIT.badInput;
    }
  }
  const held: (() => Promise<void>)[] = [];
  try {
    for (const o of outputs) {
      let lock;
      try {
        lock = await lockOutput(o.file);
      } catch (e) {
        // Found now, before anything is paid for, rather than after the work.
        err(`semece ${command}: cannot write ${o.flag} ${o.file}: ${(e as Error).message}`);
        return EXIT.failed;
      }
      if (!lock.ok) {
        const who = lock.holder === null ? 'another semece command' : `another semece command (pid ${lock.holder})`;
        err(`semece ${command}: ${who} is writing ${o.file}; wait for it to finish. If no such command is running, remove ${o.file}.lock.`);
        return EXIT.failed;
      }
      held.push(lock.release);
    }
    return await work();
  } finally {
    for (const release of held.reverse()) await release();
  }
}
