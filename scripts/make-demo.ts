/**
 * Writes the built-in demo samples into public/demo/: for each simulated demo model, the authors'
 * clustered and graded JSONL (one file pair per model, because their reader joins on id), and a
 * manifest listing them. Deterministic: the same seed gives byte-identical files.
 *
 *   npx tsx scripts/make-demo.ts
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { defaultRng } from '../src/core/rng';
import { DEMO_QUESTIONS } from '../src/demo/questions';
import { DEMO_MODELS, simulateDemoRows, toJsonl } from '../src/demo/demo-rows';
import { DEMO_MANIFEST_VERSION, DEMO_SEED, demoFileStem, type DemoManifest } from '../src/demo/manifest';

const outDir = path.resolve(import.meta.dirname, '..', 'public', 'demo');
mkdirSync(outDir, { recursive: true });

const manifest: DemoManifest = {
  version: DEMO_MANIFEST_VERSION,
  note: 'Demo data: simulated replies to the built-in demo questions. No real model produced them.',
  seed: DEMO_SEED,
  models: [],
};

DEMO_MODELS.forEach((model, i) => {
  // One stream per model, so adding a model leaves the others' samples unchanged.
  const rng = defaultRng(DEMO_SEED + i);
  const rows = simulateDemoRows(DEMO_QUESTIONS, model, () => rng.random());
  const stem = demoFileStem(model.name);
  writeFileSync(path.join(outDir, `${stem}.clustered.jsonl`), toJsonl(rows.clustered));
  writeFileSync(path.join(outDir, `${stem}.graded.jsonl`), toJsonl(rows.graded));
  manifest.models.push({ model: model.name, clustered: `${stem}.clustered.jsonl`, graded: `${stem}.graded.jsonl` });
});

writeFileSync(path.join(outDir, 'manifest.json'), JSON.stringify(manifest, null, 2) + '\n');
console.log(`wrote ${manifest.models.length} demo models × ${DEMO_QUESTIONS.length} questions to ${outDir}`);
