/**
 * The judge clustering stage through a batch service: one judge request per question, built exactly
 * as the interactive judge clusterer builds it (distinct answers listed once, temperature 0, JSON
 * mode, reply budget by answer count), read back with the interactive judge's own parser, and
 * turned into clustering-cache entries under the keys the runner looks up (pipeline/stage-cache-keys.ts), so a
 * run finds batched clusterings as if it had computed them. Questions whose judge reply is not a
 * valid partition are listed for the interactive judge (which retries with the reply's fault).
 */
import { readJudgeReply } from '../clustering/judge-parse.ts';
import { DEFAULT_JUDGE_PROMPT, type JudgePrompt, buildJudgeMessages } from '../clustering/cluster-judge-prompt.ts';
import { dedupeAnswers, expandClasses } from '../clustering/judge-clusterer.ts';
import type { ClusteringSpec } from '../model/run-spec.ts';
import { clusteringKey } from '../pipeline/stage-cache-keys.ts';
import type { Question, SampledRow, SemanticClass, StageError } from '../model/rows.ts';
import { effectiveSettings } from '../providers/capabilities.ts';
import type { StoredClustering } from '../model/stage-cache.ts';
import { decodeCustomId, judgeCustomId, questionHash, requestSetTag } from './custom-id.ts';
import type { LineSource } from './jsonl.ts';
import { type BatchModel, requestLine, wireContextFor } from './request-lines.ts';
import { parsedResultLines } from './result-lines.ts';
import type { LineProblem } from './outcomes.ts';

type JudgeRow = Pick<SampledRow, 'id' | 'question' | 'answer_extracted'>;

interface Entry {
  row: JudgeRow;
  unique: string[];
  indexOf: number[];
}

export interface JudgeOutcome {
  questionId: string;
  /** The sampled answers judged (a run with several models judges each model's answers). */
  answers: string[];
  result: { ok: true; classes: SemanticClass[] } | { ok: false; error: StageError };
}

export class JudgeRequestSet {
  private constructor(
    readonly model: BatchModel,
    readonly prompt: JudgePrompt,
    readonly tag: string,
    private readonly entries: Map<string, Entry>,
    private readonly order: string[],
  ) {}

  static async create(model: BatchModel, rows: JudgeRow[], prompt: JudgePrompt = DEFAULT_JUDGE_PROMPT): Promise<JudgeRequestSet> {
    const tag = await requestSetTag({ judge: true, preset: model.preset, baseUrl: model.baseUrl.replace(/\/+$/, ''), model: model.model, prompt });
    const entries = new Map<string, Entry>();
    const order: string[] = [];
    for (const row of rows) {
      const { unique, indexOf } = dedupeAnswers(row.answer_extracted);
      // The answers are part of the id's hash: a reply is only applied to the answer list it judged.
      const h = await questionHash({ id: row.id, question: `${row.question}\n${unique.join('\n')}` });
      if (entries.has(h)) continue;
      entries.set(h, { row, unique, indexOf });
      order.push(h);
    }
    return new JudgeRequestSet(model, prompt, tag, entries, order);
  }

  /** Classes that need no judge (one distinct answer, or none): the partition is forced. */
  forced(): JudgeOutcome[] {
    return this.order
      .map((h) => this.entries.get(h)!)
      .filter((e) => e.unique.length <= 1)
      .map((e) => ({ questionId: e.row.id, answers: e.row.answer_extracted, result: { ok: true as const, classes: e.unique.length === 0 ? [] : [{ label: e.unique[0] || '(no answer)', members: e.row.answer_extracted.map((_, i) => i) }] } }));
  }

  /** One request line per question that needs the judge, optionally skipping ids already clustered. */
  requests(skip: (questionId: string) => boolean = () => false): { customId: string; questionId: string; line: Record<string, unknown> }[] {
    const ctx = wireContextFor(this.model);
    const out = [];
    for (const h of this.order) {
      const e = this.entries.get(h)!;
      if (e.unique.length <= 1 || skip(e.row.id)) continue;
      const customId = judgeCustomId(this.tag, h);
      const settings = { temperature: 0, maxTokens: 512 + 48 * e.unique.length, json: true };
      const messages = buildJudgeMessages(e.row.question, e.unique, this.prompt);
      out.push({ customId, questionId: e.row.id, line: requestLine(this.model.kind, ctx, customId, messages, effectiveSettings(ctx.caps, settings, 1)) });
    }
    return out;
  }

  /** Reads a judge result file: a partition per question, or why there is none; bad lines named by file and line. */
  async ingest(source: LineSource, file: string): Promise<{ outcomes: JudgeOutcome[]; problems: LineProblem[] }> {
    const outcomes: JudgeOutcome[] = [];
    const problems: LineProblem[] = [];
    const seen = new Set<string>();
    for await (const { line, parsed } of parsedResultLines(source, this.model.kind)) {
      if ('problem' in parsed) {
        problems.push({ file, line, ...parsed.problem });
        continue;
      }
      const id = parsed.outcome.customId;
      const d = decodeCustomId(id);
      const entry = d?.kind === 'judge' && d.tag === this.tag ? this.entries.get(d.qHash) : undefined;
      if (!entry) {
        problems.push({ file, line, kind: d?.kind === 'judge' && d.tag !== this.tag ? 'foreign-id' : 'unknown-id', customId: id, message: `custom_id ${id} is not a judge request of this clustering (other judge, prompt, question or answers)` });
        continue;
      }
      if (seen.has(id)) {
        problems.push({ file, line, kind: 'duplicate-id', customId: id, message: `custom_id ${id} appears again (the earlier line is kept)` });
        continue;
      }
      seen.add(id);
      const where = `judge batch, question ${entry.row.id}`;
      if (!parsed.outcome.ok) {
        outcomes.push({ questionId: entry.row.id, answers: entry.row.answer_extracted, result: { ok: false, error: { kind: 'judge', message: `${parsed.outcome.error.code}: ${parsed.outcome.error.message}`, where } } });
        continue;
      }
      const read = readJudgeReply(parsed.outcome.replies[0]?.text ?? '', entry.unique.length);
      outcomes.push({
        questionId: entry.row.id,
        answers: entry.row.answer_extracted,
        result: read.ok ? { ok: true, classes: expandClasses(read.value, entry.indexOf) } : { ok: false, error: { ...read.error, where } },
      });
    }
    return { outcomes, problems };
  }
}

/** Successful outcomes as clustering-cache entries under the runner's keys for this clustering spec. */
export async function clusteringEntries(outcomes: JudgeOutcome[], questions: Map<string, Question>, spec: ClusteringSpec): Promise<StoredClustering[]> {
  const out: StoredClustering[] = [];
  for (const o of outcomes) {
    const q = questions.get(o.questionId);
    if (!o.result.ok || !q) continue;
    out.push({ key: await clusteringKey(q, o.answers, spec), result: o.result, storedAt: Date.now() });
  }
  return out;
}
