/**
 * custom_id of a batch request. Anthropic allows only [a-zA-Z0-9_-]{1,64}, so the id cannot carry
 * sample keys (64 hex each); it carries what rebuilds them exactly instead:
 *
 *   semece-<tag>-<question>-<first index>-<count>    (sampling)
 *   semece-j-<tag>-<question>                        (judge clustering)
 *   semece-p-<tag>-<question>-<first index>-<count>  (p(True) replies)
 *
 * <tag> (8 hex) hashes everything the request set depends on besides the question (provider,
 * base URL, model, prompt template, settings), so a result file of another run or setting is
 * refused line by line instead of being stored under the wrong keys. <question> (12 hex) hashes
 * the question's id and text, so a dataset edited since the requests were written is noticed too.
 */
import { canonicalJson } from '../model/sample-cache.ts';
import { sha256Hex } from '../model/hash.ts';

const TAG_HEX = 8;
const QUESTION_HEX = 12;
const SAMPLE_ID = /^semece-([0-9a-f]{8})-([0-9a-f]{12})-(\d{1,6})-(\d{1,4})$/;
const JUDGE_ID = /^semece-j-([0-9a-f]{8})-([0-9a-f]{12})$/;
const P_TRUE_ID = /^semece-p-([0-9a-f]{8})-([0-9a-f]{12})-(\d{1,4})-(\d{1,4})$/;

export async function requestSetTag(identity: unknown): Promise<string> {
  return (await sha256Hex(canonicalJson(identity))).slice(0, TAG_HEX);
}

export async function questionHash(q: { id: string; question: string }): Promise<string> {
  return (await sha256Hex(`${q.id}\n${q.question}`)).slice(0, QUESTION_HEX);
}

export function sampleCustomId(tag: string, qHash: string, first: number, count: number): string {
  return `semece-${tag}-${qHash}-${first}-${count}`;
}

export function judgeCustomId(tag: string, qHash: string): string {
  return `semece-j-${tag}-${qHash}`;
}

export function pTrueCustomId(tag: string, qHash: string, first: number, count: number): string {
  return `semece-p-${tag}-${qHash}-${first}-${count}`;
}

export type DecodedId =
  | { kind: 'sample' | 'p-true'; tag: string; qHash: string; first: number; count: number }
  | { kind: 'judge'; tag: string; qHash: string };

/** undefined when the id is not one of ours at all. */
export function decodeCustomId(id: string): DecodedId | undefined {
  const s = SAMPLE_ID.exec(id);
  if (s) return { kind: 'sample', tag: s[1], qHash: s[2], first: Number(s[3]), count: Number(s[4]) };
  const p = P_TRUE_ID.exec(id);
  if (p) return { kind: 'p-true', tag: p[1], qHash: p[2], first: Number(p[3]), count: Number(p[4]) };
  const j = JUDGE_ID.exec(id);
  if (j) return { kind: 'judge', tag: j[1], qHash: j[2] };
  return undefined;
}
