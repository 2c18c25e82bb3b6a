/**
 * A clustering method is a row of the methods table (model/clustering-methods.ts) and a row of the
 * clusterer registry (clustering/clusterer-registry.ts): a method of this test's own, "first words"
 * (answers that begin with the same words share a class), added to copies of both tables and
 * nowhere else, is read by the run spec's schema, offered among the wizard's clustering options,
 * and listed, accepted and run by `semece cluster` (its help, its refusal of an unknown method,
 * its own flag, the rows it writes and the detail recorded in them). Its settings panel is a file of
 * its own (first-words-panel.test.svelte), its wizard row in the panel, found by a glob as the
 * wizard finds the shipped panels: the wizard's rows take it, and it renders its settings. The
 * shipped tables refuse it.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { z } from 'zod';
import cluster, { USAGE } from '../../../cli/commands/cluster';
import { CLUSTERERS, type ClustererRow } from '../../../src/clustering/clusterer-registry';
import { CLUSTERING_METHODS, type ClusteringMethodInfo } from '../../../src/model/clustering-methods';
import type { SemanticClass } from '../../../src/model/rows';
import { runSpecSchema, runSpecSchemaOf } from '../../../src/formats/run-spec-schema';
import { render } from 'svelte/server';
import { CLUSTERING_PANEL_MODULES, clusteringChoicesOf, clusteringOptions, noSettings, type ClusteringPanelModule } from '../../../src/ui/run/clustering-choice';

const NAME = 'first-words';
const settings = z.object({ words: z.number().int().min(1) });

/** The methods table's row: its settings, its words and its place (between embeddings and entailment). */
const INFO: ClusteringMethodInfo<typeof settings> = {
  label: 'First words',
  description: 'answers that begin with the same words share a class. Free and instant.',
  rank: 1.5,
  settings,
  detail: (s) => `the first ${s.words} word(s), lower-cased`,
};

/** Classes by the first `words` words of each answer, numbered by first appearance. */
function firstWords(answers: string[], words: number): SemanticClass[] {
  const classes = new Map<string, number[]>();
  answers.forEach((a, i) => {
    const key = a.trim().toLowerCase().split(/\s+/).slice(0, words).join(' ');
    classes.set(key, [...(classes.get(key) ?? []), i]);
  });
  return [...classes].map(([label, members]) => ({ label, members }));
}

/** The registry's row: how it is built, what its cache key holds, and its flag. */
const ROW: ClustererRow<{ method: string; words: number }> = {
  cacheIdentity: (s) => ({ method: s.method, words: s.words }),
  cached: false,
  create: (s) => ({ method: NAME as never, cluster: async (_question, answers) => ({ ok: true, value: firstWords(answers, s.words) }) }),
  cli: {
    help: '[--words N] (default 1) answers whose first N words agree share a class',
    flags: { words: 'string' },
    settings: (flags) => {
      const words = flags.words === undefined ? 1 : Number(flags.words);
      if (!Number.isInteger(words) || words < 1) throw new Error(`--words must be a whole number of at least 1, got ${JSON.stringify(flags.words)}`);
      return { words };
    },
  },
};

/** The shipped tables, each with one more row: the only place the test adds its method. */
const METHODS = { ...CLUSTERING_METHODS, [NAME]: INFO };
const TABLES = { methods: METHODS, clusterers: { ...CLUSTERERS, [NAME]: ROW } };

/** Its panel, imported as the wizard imports the shipped ones (clustering-choice.ts), beside them. */
const PANELS = { ...CLUSTERING_PANEL_MODULES, ...import.meta.glob<ClusteringPanelModule>('./first-words-panel.test.svelte', { eager: true }) };

const spec = (clustering: Record<string, unknown>) => ({
  title: 't',
  dataset: { name: 'd', source: 'demo', questions: [{ id: 'q', question: 'Q?', answer: 'A' }] },
  models: [{ kind: 'openai', preset: 'openai', baseUrl: 'https://api.openai.com/v1', model: 'm' }],
  sampling: { n: 4, temperature: 1, maxTokens: 64, prompt: '{question}', concurrency: 1 },
  clustering,
  grading: { method: 'alias' },
});

describe('a clustering method added through the tables alone', () => {
  test('the run spec schema reads a spec with it, checking its settings; the shipped schema refuses it', () => {
    const read = runSpecSchemaOf(METHODS).safeParse(spec({ method: NAME, words: 2 }));
    expect(read.success).toBe(true);
    expect(read.data?.clustering).toEqual({ method: NAME, words: 2 });
    expect(runSpecSchemaOf(METHODS).safeParse(spec({ method: NAME, words: 'two' })).success).toBe(false);
    expect(runSpecSchemaOf(METHODS).safeParse(spec({ method: 'exact' })).success).toBe(true);
    expect(runSpecSchema.safeParse(spec({ method: NAME, words: 2 })).success).toBe(false);
  });

  test("the wizard offers it, with its label and description, in its rank's place", () => {
    const options = clusteringOptions(METHODS);
    expect(options.map((o) => o.value)).toEqual(['exact', 'embedding', NAME, 'entailment', 'judge']);
    expect(options.find((o) => o.value === NAME)).toEqual({ value: NAME, label: INFO.label, description: INFO.description });
    expect(clusteringOptions().map((o) => o.value)).not.toContain(NAME);
  });

  test('its panel file carries its wizard row: its settings become a spec the schema reads, and the panel edits them', () => {
    const choices = clusteringChoicesOf(METHODS, PANELS, [noSettings('exact')]);
    const row = choices[NAME];
    expect(row.method).toBe(NAME);
    expect(row.panel).not.toBeNull();
    const settings = row.initial();
    expect(row.problems(settings)).toEqual([]);
    expect(runSpecSchemaOf(METHODS).parse(spec({ method: NAME, ...row.spec(settings) })).clustering).toEqual({ method: NAME, words: 2 });
    expect(row.problems({ words: 0 })).toEqual(['The words compared must be a whole number of at least 1.']);
    const html = render(row.panel!, { props: { settings, ring: undefined as never } }).body;
    expect(html).toMatch(/<input id="c-fw-words" type="number"[^>]* value="2"/);
    // The shipped methods table has no such method: its wizard refuses the row.
    expect(() => clusteringChoicesOf(CLUSTERING_METHODS, PANELS, [noSettings('exact')])).toThrow(`the wizard has a row for "${NAME}" (./first-words-panel.test.svelte), which the methods table lacks`);
  });

  describe('semece cluster', () => {
    let dir: string;
    const sampled = [
      { id: 'fr', question: 'What is the capital of France?', gold_answer: 'Paris', model: 'm', n_samples: 4, results: ['r', 'r', 'r', 'r'], answer_extracted: ['Paris, France', 'paris', 'Lyon', 'Paris in 1900'], confidence_verbalized: [0.9, 0.8, null, 0.7] },
    ];
    beforeAll(async () => {
      dir = await mkdtemp(join(tmpdir(), 'semece-method-table-'));
      await writeFile(join(dir, 'sampled.jsonl'), sampled.map((r) => JSON.stringify(r)).join('\n') + '\n');
    });
    afterAll(async () => {
      await rm(dir, { recursive: true, force: true });
    });
    async function cli(args: string[], tables?: typeof TABLES) {
      const out: string[] = [];
      const err: string[] = [];
      const code = await cluster(args, { out: (s) => out.push(s), err: (s) => err.push(s), env: {} }, tables);
      return { code, out: out.join('\n'), err: err.join('\n') };
    }

    test('--help lists it among the --method values, with its own flags', async () => {
      const r = await cli(['--help'], TABLES);
      expect(r.code).toBe(0);
      expect(r.out).toContain(`--method judge|embedding|entailment|exact|${NAME} `);
      expect(r.out).toMatch(new RegExp(`^  ${NAME}: +\\[--words N\\]`, 'm'));
      expect(USAGE).not.toContain(NAME);
    });

    test('an unknown method is refused naming it among the methods; the shipped command refuses it', async () => {
      const bad = await cli(['--method', 'magic', '--in', join(dir, 'sampled.jsonl'), '--out', join(dir, 'x.jsonl')], TABLES);
      expect(bad.code).toBe(2);
      expect(bad.err).toContain(`--method must be judge, embedding, entailment, exact or ${NAME}, got "magic"`);
      const shipped = await cli(['--method', NAME, '--in', join(dir, 'sampled.jsonl'), '--out', join(dir, 'x.jsonl')]);
      expect(shipped.code).toBe(2);
      expect(shipped.err).toContain(`--method must be judge, embedding, entailment or exact, got "${NAME}"`);
    });

    test('it clusters the rows with its own flag, and each row records it and its detail', async () => {
      const r = await cli(['--method', NAME, '--words', '1', '--in', join(dir, 'sampled.jsonl'), '--out', join(dir, 'first.jsonl')], TABLES);
      expect(r.err).not.toMatch(/failed/);
      expect(r.code).toBe(0);
      expect(JSON.parse(r.out)).toMatchObject({ method: NAME, questions: 1, clustered: 1, failed: 0 });
      const rows = (await readFile(join(dir, 'first.jsonl'), 'utf8')).trim().split('\n').map((l) => JSON.parse(l));
      expect(rows[0]).toMatchObject({
        n_clusters: 3,
        // "paris," (its comma kept) is not "paris": the rule is the test's own, word for word.
        cluster_assignments: [0, 1, 2, 1],
        cluster_sizes: [1, 2, 1],
        clustering_method: NAME,
        clustering_detail: 'the first 1 word(s), lower-cased',
      });
      const refused = await cli(['--method', NAME, '--words', 'none', '--in', join(dir, 'sampled.jsonl'), '--out', join(dir, 'y.jsonl')], TABLES);
      expect(refused.code).toBe(2);
      expect(refused.err).toContain('--words must be a whole number of at least 1, got "none"');
    });
  });
});
