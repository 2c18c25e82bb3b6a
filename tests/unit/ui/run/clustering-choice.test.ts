/**
 * The wizard's clustering rows (src/ui/run/clustering-choice.ts) are collected from the panel files
 * in src/ui/run/clustering-panels/ by a glob, which TypeScript does not see: these tests stand
 * where the compiler's check of the table once stood. Every method of the methods table has
 * exactly one row, a method with settings has a panel (the file that carries its row), and the
 * rows found are those of the panel files on disk; a table or a set of rows that breaks this is
 * refused, naming what is wrong.
 */
import { readdirSync } from 'node:fs';
import { render } from 'svelte/server';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { CLUSTERING_METHOD_NAMES, CLUSTERING_METHODS, type ClusteringMethodInfo } from '../../../../src/model/clustering-methods';
import { DEFAULT_EMBEDDING_MODEL } from '../../../../src/clustering/embedding-models';
import { DEFAULT_NLI_MODEL } from '../../../../src/clustering/nli-models';
import { KeyRing } from '../../../../src/ui/state/keys.svelte';
import { CLUSTERING_CHOICES, CLUSTERING_PANEL_MODULES, clusteringChoicesOf, clusteringPanel, noSettings, type ClusteringPanelModule } from '../../../../src/ui/run/clustering-choice';

const PANEL_FOLDER = 'src/ui/run/clustering-panels';
/** The methods with settings (a settings schema with fields). */
const WITH_SETTINGS = CLUSTERING_METHOD_NAMES.filter((m) => Object.keys(CLUSTERING_METHODS[m].settings.shape).length > 0);

describe('the shipped rows', () => {
  test('every method of the methods table has exactly one row, under its own name', () => {
    expect(Object.keys(CLUSTERING_CHOICES).sort()).toEqual([...CLUSTERING_METHOD_NAMES].sort());
    for (const [method, row] of Object.entries(CLUSTERING_CHOICES)) expect(row.method).toBe(method);
  });

  test('the rows found are those of the panel files: one per file, one per method with settings', () => {
    const files = readdirSync(PANEL_FOLDER).filter((f) => f.endsWith('.svelte'));
    expect(Object.keys(CLUSTERING_PANEL_MODULES).map((k) => k.replace('./clustering-panels/', '')).sort()).toEqual(files.sort());
    expect(Object.values(CLUSTERING_PANEL_MODULES).map((m) => m.choice.method).sort()).toEqual([...WITH_SETTINGS].sort());
    for (const m of Object.values(CLUSTERING_PANEL_MODULES)) expect(clusteringPanel(m.choice.method as never)).toBe(m.default);
  });

  test('a method without settings shows no panel', () => {
    const without = CLUSTERING_METHOD_NAMES.filter((m) => !WITH_SETTINGS.includes(m));
    expect(without.length).toBeGreaterThan(0);
    for (const m of without) expect(clusteringPanel(m)).toBeNull();
  });
});

test("each shipped panel renders its row's settings as the wizard starts them: the judge's model fields, each own model's id", () => {
  // The ring is never loaded here: a panel only reads the keys it holds in the tab.
  const ring = new KeyRing({ rememberedKeys: async () => ({ ok: true, value: {} }), rememberKey: async () => ({ ok: true, value: true }), forgetKey: async () => ({ ok: true, value: true }) });
  const html = Object.fromEntries(WITH_SETTINGS.map((m) => [m, render(clusteringPanel(m)!, { props: { settings: CLUSTERING_CHOICES[m].initial(), ring } }).body]));
  expect(html.judge).toContain('Clustering judge model');
  expect(html.judge).toMatch(/id="cjudge-model"/);
  expect(html.embedding).toMatch(new RegExp(`id="c-emb-model"[^>]*value="${DEFAULT_EMBEDDING_MODEL}"`));
  expect(html.embedding).toMatch(/id="c-emb-th" type="number"[^>]*value="0\.\d+"/);
  expect(html.entailment).toMatch(new RegExp(`id="c-nli-model"[^>]*value="${DEFAULT_NLI_MODEL}"`));
});

describe('clusteringChoicesOf refuses rows that do not match the table', () => {
  const panel = (method: string): ClusteringPanelModule => ({ ...Object.values(CLUSTERING_PANEL_MODULES)[0], choice: { ...Object.values(CLUSTERING_PANEL_MODULES)[0].choice, method } });
  const EXACT = [noSettings('exact')];

  test('the shipped panels and rows make the shipped table', () => {
    expect(Object.keys(clusteringChoicesOf(CLUSTERING_METHODS, CLUSTERING_PANEL_MODULES, EXACT)).sort()).toEqual([...CLUSTERING_METHOD_NAMES].sort());
  });

  test('a method with no row', () => {
    expect(() => clusteringChoicesOf(CLUSTERING_METHODS, CLUSTERING_PANEL_MODULES, [])).toThrow('the wizard has no row for the clustering method(s) exact');
  });

  test('a method with two rows, naming where each is', () => {
    expect(() => clusteringChoicesOf(CLUSTERING_METHODS, { ...CLUSTERING_PANEL_MODULES, './clustering-panels/Again.svelte': panel('judge') }, EXACT)).toThrow(/two rows for "judge" \(.*\.svelte and \.\/clustering-panels\/Again\.svelte\)/);
  });

  test('a row for a method the table lacks', () => {
    expect(() => clusteringChoicesOf(CLUSTERING_METHODS, { ...CLUSTERING_PANEL_MODULES, './clustering-panels/Magic.svelte': panel('magic') }, EXACT)).toThrow('the wizard has a row for "magic" (./clustering-panels/Magic.svelte), which the methods table lacks');
  });

  test('a method with settings but no panel, and one without settings given a panel', () => {
    const words: ClusteringMethodInfo = { label: 'W', description: 'w', rank: 9, settings: z.object({ words: z.number() }), detail: () => 'w' };
    const none: ClusteringMethodInfo = { label: 'N', description: 'n', rank: 9, settings: z.object({}), detail: () => 'n' };
    expect(() => clusteringChoicesOf({ ...CLUSTERING_METHODS, words }, CLUSTERING_PANEL_MODULES, [...EXACT, { ...noSettings('exact'), method: 'words' }])).toThrow('the clustering method "words" has settings but no panel');
    expect(() => clusteringChoicesOf({ ...CLUSTERING_METHODS, none }, { ...CLUSTERING_PANEL_MODULES, './clustering-panels/None.svelte': panel('none') }, EXACT)).toThrow('the clustering method "none" has no settings but a panel (./clustering-panels/None.svelte)');
  });
});
