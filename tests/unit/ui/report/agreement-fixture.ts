/**
 * A second clustering of the demo samples: the authors' clustered rows of a demo model with their
 * clustering fields remade by the exact-match clusterer ("Canberra" and "Canberra, ACT" apart),
 * as a user would get by clustering the same samples with another method.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { clusterExact } from '../../../../src/clustering/exact';
import { classesToRowFields } from '../../../../src/clustering/row-fields';

export function demoClusteredText(file = 'demo-model-a.clustered.jsonl'): string {
  return readFileSync(path.resolve('public/demo', file), 'utf8');
}

export function reclusteredExact(text = demoClusteredText()): string {
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const row = JSON.parse(line);
      const answers = (row.answer_extracted as (string | null)[]).map((a) => a ?? '');
      return JSON.stringify({ ...row, ...classesToRowFields(clusterExact(answers), answers.length) });
    })
    .join('\n');
}
