/** The wizard's entailment row: the similarity setting is off unless ticked, reaches the run spec only when on, and comes back from a spec. */
import { render } from 'svelte/server';
import { expect, test } from 'vitest';
import { CLUSTERING_CHOICES, clusteringPanel } from '../../../../src/ui/run/clustering-choice';
import { clusteringSpecSchemaOf } from '../../../../src/model/clustering-methods';
import { KeyRing } from '../../../../src/ui/state/keys.svelte';

const row = CLUSTERING_CHOICES.entailment;
const ring = new KeyRing({ rememberedKeys: async () => ({ ok: true, value: {} }), rememberKey: async () => ({ ok: true, value: true }), forgetKey: async () => ({ ok: true, value: true }) });
const html = (settings: object) => render(clusteringPanel('entailment')!, { props: { settings, ring } }).body;

test('off at the start: no similarity in the spec, the box unticked', () => {
  const start = row.initial();
  expect('similarity' in row.spec(start)).toBe(false);
  expect(html(start)).toMatch(/<input id="c-nli-similarity" type="checkbox"(?![^>]*checked)[^>]*>/);
});

test('ticked: the spec asks for it (a valid spec), the box shows it, and a spec with it edits back to it', () => {
  const on = { ...row.initial(), similarity: 'entailment' as const };
  const spec = row.spec(on);
  expect(spec).toMatchObject({ similarity: 'entailment' });
  expect(clusteringSpecSchemaOf().safeParse({ method: 'entailment', ...spec }).success).toBe(true);
  expect(html(on)).toMatch(/<input id="c-nli-similarity" type="checkbox"[^>]*checked/);
  expect(row.edit({ method: 'entailment', ...spec } as never, row.initial())).toMatchObject({ similarity: 'entailment' });
  // A spec without it (an older run) edits back to off, whatever was kept.
  expect('similarity' in row.edit({ method: 'entailment', model: 'm', allowRemote: false } as never, on)).toBe(false);
});
