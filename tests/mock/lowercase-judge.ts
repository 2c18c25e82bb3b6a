/**
 * A clustering judge for the loopback mock (its `responder`): groups the answers listed in the
 * judge prompt's <data> block by lower-cased text, in order of first appearance. Undefined for a
 * request that is not a clustering prompt, so the mock answers it as a sampled question.
 */
import type { ParsedRequest } from './wire-formats.ts';

export function lowercaseJudge(req: ParsedRequest): string | undefined {
  const block = /<data>\n(.*)\n<\/data>/.exec(req.user);
  if (!block) return undefined;
  const groups = new Map<string, number[]>();
  for (const a of (JSON.parse(block[1]) as { answers: { index: number; text: string }[] }).answers) {
    const k = a.text.trim().toLowerCase();
    groups.set(k, [...(groups.get(k) ?? []), a.index]);
  }
  return JSON.stringify({ clusters: [...groups].map(([label, members]) => ({ label, members })) });
}
