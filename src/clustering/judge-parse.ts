/**
 * Reading the judge's reply: tolerant about the wrapping (code fences, prose around the JSON, a
 * reply cut off after its last complete group), strict about the content (a complete, exact
 * partition of 0..n-1). A cut-off reply is repaired only by dropping the unfinished tail and
 * closing the brackets; if that loses any index, strict validation rejects it — nothing is
 * guessed.
 */
import type { Result, SemanticClass } from '../model/rows';

export interface ParsedJson {
  value: unknown;
  /** True when the reply was cut off and its tail dropped. */
  repaired: boolean;
}

/** The inside of the first ``` fence (an unterminated fence runs to the end), else the text. */
export function stripCodeFence(text: string): string {
  const open = /```[a-zA-Z]*[^\S\n]*\n?/.exec(text);
  if (!open) return text;
  const start = open.index + open[0].length;
  const close = text.indexOf('```', start);
  return close === -1 ? text.slice(start) : text.slice(start, close);
}

/**
 * Scans from the first '{' with a bracket stack that knows strings. Returns the balanced object,
 * or — when the text ends first — the prefix up to the last object that closed inside an array,
 * with the still-open brackets closed.
 */
export function balancedJson(text: string): { json: string; repaired: boolean } | null {
  const start = text.indexOf('{');
  if (start === -1) return null;
  const stack: string[] = [];
  let inString = false;
  let escaped = false;
  let lastCut = -1;
  let stackAtCut: string[] = [];
  for (let i = start; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      if (escaped) escaped = false;
      else if (ch === '\\') escaped = true;
      else if (ch === '"') inString = false;
      continue;
    }
    if (ch === '"') inString = true;
    else if (ch === '{' || ch === '[') stack.push(ch);
    else if (ch === '}' || ch === ']') {
      const open = stack.pop();
      if ((ch === '}' && open !== '{') || (ch === ']' && open !== '[')) return null;
      if (stack.length === 0) return { json: text.slice(start, i + 1), repaired: false };
      if (ch === '}' && stack[stack.length - 1] === '[') {
        lastCut = i + 1;
        stackAtCut = stack.slice();
      }
    }
  }
  if (lastCut === -1) return null;
  const closers = stackAtCut.reverse().map((b) => (b === '{' ? '}' : ']')).join('');
  return { json: text.slice(start, lastCut) + closers, repaired: true };
}

export function parseJudgeJson(reply: string): Result<ParsedJson> {
  const where = 'judge reply';
  const body = stripCodeFence(reply);
  const found = balancedJson(body) ?? (body === reply ? null : balancedJson(reply));
  if (!found) {
    const hint = reply.trim() === '' ? 'the reply was empty' : 'the reply holds no complete JSON object';
    return { ok: false, error: { kind: 'judge-parse', message: hint, where } };
  }
  try {
    return { ok: true, value: { value: JSON.parse(found.json), repaired: found.repaired } };
  } catch (err) {
    return { ok: false, error: { kind: 'judge-parse', message: `the JSON in the reply does not parse (${(err as Error).message})`, where } };
  }
}

const MAX_LISTED = 10;
const list = (xs: number[]) => xs.slice(0, MAX_LISTED).join(', ') + (xs.length > MAX_LISTED ? ` … (${xs.length} in all)` : '');

/** Strict: `{"clusters":[{"label": non-empty string, "members": [integers]}]}`, every index once. */
export function validatePartition(value: unknown, n: number): Result<SemanticClass[]> {
  const fail = (message: string): Result<SemanticClass[]> => ({ ok: false, error: { kind: 'judge-partition', message, where: 'judge reply' } });
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return fail('the JSON is not an object');
  const clusters = (value as { clusters?: unknown }).clusters;
  if (!Array.isArray(clusters)) return fail('the JSON has no "clusters" array');
  const seen = new Array<number>(n).fill(-1);
  const outOfRange: number[] = [];
  const duplicates: number[] = [];
  const classes: SemanticClass[] = [];
  for (let k = 0; k < clusters.length; k++) {
    const c = clusters[k] as { label?: unknown; members?: unknown };
    if (typeof c !== 'object' || c === null) return fail(`cluster ${k} is not an object`);
    if (typeof c.label !== 'string' || c.label.trim() === '') return fail(`cluster ${k} has no label`);
    if (!Array.isArray(c.members)) return fail(`cluster ${k} ("${c.label}") has no "members" array`);
    for (const m of c.members) {
      if (typeof m !== 'number' || !Number.isInteger(m)) return fail(`cluster ${k} ("${c.label}") has a member that is not an integer index: ${JSON.stringify(m)}`);
      if (m < 0 || m >= n) outOfRange.push(m);
      else if (seen[m] !== -1) duplicates.push(m);
      else seen[m] = k;
    }
    classes.push({ label: c.label.trim(), members: (c.members as number[]).filter((m) => m >= 0 && m < n) });
  }
  const missing = seen.flatMap((k, i) => (k === -1 ? [i] : []));
  const problems: string[] = [];
  if (outOfRange.length) problems.push(`indices out of range 0..${n - 1}: ${list(outOfRange)}`);
  if (duplicates.length) problems.push(`indices listed more than once: ${list(duplicates)}`);
  if (missing.length) problems.push(`indices missing: ${list(missing)}`);
  if (problems.length) return fail(problems.join('; '));
  return { ok: true, value: classes };
}

/** Parse then validate; the error says which step failed and why. */
export function readJudgeReply(reply: string, n: number): Result<SemanticClass[]> & { repaired?: boolean } {
  const parsed = parseJudgeJson(reply);
  if (!parsed.ok) return parsed;
  const checked = validatePartition(parsed.value.value, n);
  if (!checked.ok && parsed.value.repaired) {
    return { ok: false, error: { ...checked.error, message: `the reply was cut off and what remains is incomplete: ${checked.error.message}` } };
  }
  return { ...checked, repaired: parsed.value.repaired };
}
