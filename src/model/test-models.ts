/**
 * The toy models the repository makes for its tests (scripts/make-tiny-*-model.ts, shipped in
 * public/models/): a lookup-table "language model", an NLI classifier and an embedder that
 * compute nothing meaningful. A report from a run on one of them looks like any other, so it is
 * marked (`ReportDocument.testModel`) and labelled like the demo. This is the one list: the
 * clusterers' and the in-browser provider's constants are these names.
 */
export const TINY_CAUSAL_MODEL = 'tiny-causal-lm';
export const TINY_NLI_MODEL = 'tiny-nli';
export const TINY_EMBEDDING_MODEL = 'tiny-embedder';

export const TEST_MODEL_IDS: readonly string[] = [TINY_CAUSAL_MODEL, TINY_NLI_MODEL, TINY_EMBEDDING_MODEL];

/**
 * The toy models named in `text`: a whole name, alone or after a provider or folder ('in-browser/tiny-nli'),
 * or leading a setting's detail ('tiny-nli, mutual entailment …'); never inside a longer name ('tiny-nli-v2').
 */
export function testModelsNamedIn(text: string | undefined): string[] {
  if (!text) return [];
  return TEST_MODEL_IDS.filter((id) => new RegExp(`(^|[\\s/\\\\(])${id}($|[\\s,;)])`).test(text));
}

/**
 * The toy models a report's run used: its models' names (the generator, 'preset/model') and the
 * clustering and grading details (the embedding or NLI model, a judge 'preset/model'). In list order.
 */
export function testModelsUsed(names: readonly (string | undefined)[]): string[] {
  const found = new Set(names.flatMap(testModelsNamedIn));
  return TEST_MODEL_IDS.filter((id) => found.has(id));
}
