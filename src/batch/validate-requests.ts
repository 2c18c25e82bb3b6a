/**
 * Checking a request file line by line before it is uploaded (or after a user edited it): JSON,
 * the service's line shape, unique ids, ids this run can map back, and the service's size limits.
 */
import { isRecord } from '../providers/wire.ts';
import { type LineSource, linesOf } from './lines.ts';
import { BATCH_LIMITS, OPENAI_BATCH_ENDPOINT, lineCustomId } from './request-lines.ts';
import type { SampleRequestSet } from './request-set.ts';
import type { BatchApi, LineProblem } from './types.ts';

export interface RequestFileCheck {
  lines: number;
  bytes: number;
  problems: LineProblem[];
  problemCount: number;
  /** Over the service's per-batch limits: split before submitting. */
  overLimit: string | null;
}

function shapeProblem(api: BatchApi, v: Record<string, unknown>): string | null {
  if (api === 'openai') {
    if (v.method !== 'POST') return '"method" must be "POST"';
    if (v.url !== OPENAI_BATCH_ENDPOINT) return `"url" must be "${OPENAI_BATCH_ENDPOINT}"`;
    if (!isRecord(v.body) || typeof v.body.model !== 'string' || !Array.isArray(v.body.messages)) return '"body" needs "model" and a "messages" list';
    return null;
  }
  if (api === 'anthropic') {
    const p = v.params;
    if (!isRecord(p) || typeof p.model !== 'string' || !Array.isArray(p.messages)) return '"params" needs "model" and a "messages" list';
    if (typeof p.max_tokens !== 'number') return '"params.max_tokens" is required';
    return null;
  }
  if (!isRecord(v.request) || !Array.isArray(v.request.contents)) return '"request" needs a "contents" list';
  return null;
}

export async function validateRequestFile(api: BatchApi, source: LineSource, file: string, set?: SampleRequestSet, maxProblems = 200): Promise<RequestFileCheck> {
  const check: RequestFileCheck = { lines: 0, bytes: 0, problems: [], problemCount: 0, overLimit: null };
  const problem = (p: LineProblem) => {
    check.problemCount++;
    if (check.problems.length < maxProblems) check.problems.push(p);
  };
  const seen = new Set<string>();
  const idName = api === 'gemini' ? 'key' : 'custom_id';
  let lineNo = 0;
  for await (const text of linesOf(source)) {
    lineNo++;
    check.bytes += text.length + 1;
    if (text.trim() === '') continue;
    check.lines++;
    let v: unknown;
    try {
      v = JSON.parse(text);
    } catch (e) {
      problem({ file, line: lineNo, kind: 'bad-json', message: `not valid JSON (${(e as Error).message.slice(0, 80)})` });
      continue;
    }
    if (!isRecord(v)) {
      problem({ file, line: lineNo, kind: 'bad-shape', message: 'a request line must be a JSON object' });
      continue;
    }
    const id = lineCustomId(api, v);
    if (typeof id !== 'string' || id === '') {
      problem({ file, line: lineNo, kind: 'bad-shape', message: `no "${idName}" string on this line` });
      continue;
    }
    if (api === 'anthropic' && !/^[a-zA-Z0-9_-]{1,64}$/.test(id)) {
      problem({ file, line: lineNo, kind: 'bad-shape', customId: id, message: `custom_id "${id.slice(0, 80)}" must be 1–64 letters, digits, "_" or "-"` });
    }
    if (seen.has(id)) problem({ file, line: lineNo, kind: 'duplicate-id', customId: id, message: `${idName} ${id} is used on an earlier line too` });
    seen.add(id);
    const shape = shapeProblem(api, v);
    if (shape) problem({ file, line: lineNo, kind: 'bad-shape', customId: id, message: `${idName} ${id}: ${shape}` });
    if (set) {
      const at = set.locate(id);
      if (!at.ok) problem({ file, line: lineNo, kind: at.kind, customId: id, message: at.message });
    }
  }
  const limit = BATCH_LIMITS[api];
  if (check.lines > limit.maxRequests) check.overLimit = `${check.lines} requests; one batch holds at most ${limit.maxRequests}`;
  else if (check.bytes > limit.maxBytes) check.overLimit = `${(check.bytes / 1048576).toFixed(1)} MB; one batch holds at most ${limit.maxBytes / 1048576} MB`;
  return check;
}
