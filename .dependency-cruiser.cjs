/**
 * The layer rules of docs/ARCHITECTURE.md, checked by `npm test` (npm run check:layers).
 * Floors, from the ground up:
 *   1  core/ (pure statistics), model/ (the domain: data shapes, ports, tables; zod for the tables' settings schemas)
 *   2  readers, stores and stages, in steps (each step imports only the steps below it and floor 1):
 *        2a formats/  transformers/            (readers and writers; the Transformers.js runtime that
 *                                              every in-page model load shares)
 *        2b store/  |  providers/ | clustering/ (store/ implements model/'s ports; providers/ and
 *                                              clustering/ stand side by side and never import each other)
 *        2c grading/                          (graders; uses clustering's normalisation)
 *        2d pipeline/                         (the stages and the run lifecycle, written against ports)
 *      No stage folder imports store/: the stages see the ports of model/, workers/ hands them the store.
 *   3  features: multiple-choice/ batch/ share/ export/ demo/ hub/          (use the floors below, never each other)
 *   4  workers/   (wires real stages to real stores and providers)
 *   5  ui/  cli/  (entry points)
 */
const FLOOR2 = '^src/(providers|formats|transformers|store|clustering|grading|pipeline)/';
const FEATURES = ['multiple-choice', 'batch', 'share', 'export', 'demo', 'hub'];
const FLOOR3 = `^src/(${FEATURES.join('|')})/`;
const ABOVE2 = `^src/(${FEATURES.join('|')}|workers|ui)/|^src/main\\.ts$|^cli/`;
/** Every folder that runs or feeds a stage: none of them may reach the store behind the ports. */
const STAGE_FOLDERS = ['pipeline', 'clustering', 'grading', 'providers', 'formats', 'transformers', ...FEATURES];

module.exports = {
  forbidden: [
    { name: 'no-circular', severity: 'error', comment: 'Files that import each other in a loop.', from: { path: '^(src|cli)/' }, to: { circular: true } },
    { name: 'core-is-pure', severity: 'error', comment: 'core/ imports only core/.', from: { path: '^src/core/' }, to: { path: '^src/(?!core/)|^cli/|^node:|^(?!\\.)' , pathNot: '^src/core/' } },
    // zod: the methods table's settings schemas (model/clustering-methods.ts) are the types the run spec derives from.
    { name: 'model-on-core', severity: 'error', comment: 'model/ imports only core/, model/ and zod.', from: { path: '^src/model/' }, to: { pathNot: '^src/(core|model)/|^node_modules/zod/' } },
    { name: 'floor2-no-upward', severity: 'error', comment: 'providers, formats, store, clustering, grading and pipeline import only floors 1 and 2 (the steps of floor 2: the rules below).', from: { path: FLOOR2 }, to: { path: ABOVE2 } },
    { name: 'formats-floor-2a', severity: 'error', comment: 'formats/ is the lowest step of floor 2: it imports only floor 1.', from: { path: '^src/formats/' }, to: { path: '^src/(providers|store|clustering|grading|pipeline)/' } },
    { name: 'transformers-floor-2a', severity: 'error', comment: 'transformers/ (the shared Transformers.js runtime) stands on step 2a: it imports only floor 1.', from: { path: '^src/transformers/' }, to: { path: '^src/(providers|formats|store|clustering|grading|pipeline)/' } },
    { name: 'providers-clustering-apart', severity: 'error', comment: 'providers/ and clustering/ never import each other: what both need (the Transformers.js runtime) is in transformers/ below them.', from: { path: '^src/providers/' }, to: { path: '^src/clustering/' } },
    { name: 'clustering-providers-apart', severity: 'error', comment: 'See providers-clustering-apart.', from: { path: '^src/clustering/' }, to: { path: '^src/providers/' } },
    { name: 'store-floor-2b', severity: 'error', comment: 'store/ implements the ports of model/ and reads with formats/; it imports no stage.', from: { path: '^src/store/' }, to: { path: '^src/(providers|clustering|grading|pipeline)/' } },
    { name: 'providers-clustering-floor-2b', severity: 'error', comment: 'providers/ and clustering/ stand on step 2b: never grading/ or pipeline/.', from: { path: '^src/(providers|clustering)/' }, to: { path: '^src/(grading|pipeline)/' } },
    { name: 'grading-floor-2c', severity: 'error', comment: 'grading/ stands below pipeline/.', from: { path: '^src/grading/' }, to: { path: '^src/pipeline/' } },
    { name: 'stages-no-store', severity: 'error', comment: 'No stage folder imports store/: stages are written against the ports of model/ (run-repository.ts, stage-cache.ts, sample-cache.ts …), and workers/ hands them the store.', from: { path: `^src/(${STAGE_FOLDERS.join('|')})/` }, to: { path: '^src/store/' } },
    { name: 'features-no-upward', severity: 'error', comment: 'A feature folder imports only floors 1 and 2.', from: { path: FLOOR3 }, to: { path: '^src/(workers|ui)/|^cli/' } },
    ...FEATURES.map((f) => ({
      name: `feature-${f}-no-sibling`, severity: 'error', comment: 'A feature folder never imports a sibling feature folder.',
      from: { path: `^src/${f}/` }, to: { path: FLOOR3, pathNot: `^src/${f}/` },
    })),
    { name: 'workers-no-upward', severity: 'error', comment: 'workers/ never import ui/ or cli/.', from: { path: '^src/workers/' }, to: { path: '^src/ui/|^cli/' } },
    { name: 'ui-no-store', severity: 'error', comment: 'The page never opens IndexedDB: ui/ talks to workers.', from: { path: '^src/ui/' }, to: { path: '^src/store/|^node_modules/idb/' } },
    { name: 'ui-no-network', severity: 'error', comment: 'ui/ never calls a provider: requests go from workers.', from: { path: '^src/ui/' }, to: { path: '^src/providers/(http|openai|anthropic|gemini|create-provider|wire|wire-formats|batch-calls|batch-service)\\.ts$' } },
    { name: 'ui-no-hub-fetch', severity: 'error', comment: 'ui/ never fetches hub files itself: the dataset worker does (ui/ may read the catalogue).', from: { path: '^src/ui/' }, to: { path: '^src/hub/hub-(files|dataset)\\.ts$', dependencyTypesNot: ['type-only'] } },
    { name: 'cli-no-ui', severity: 'error', comment: 'cli/ never imports ui/.', from: { path: '^cli/' }, to: { path: '^src/ui/' } },
    { name: 'app-no-node-builtins', severity: 'error', comment: 'App code runs in a browser (build plugins excepted).', from: { path: '^src/', pathNot: 'vite-plugin' }, to: { dependencyTypes: ['core'] } },
    { name: 'app-not-on-tests', severity: 'error', comment: 'Shipped code never imports tests/ or bench/.', from: { path: '^(src|cli)/' }, to: { path: '^(tests|bench)/' } },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    includeOnly: '^(src|cli|node_modules)',
    exclude: { path: '\\.d\\.ts$' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.svelte', '.js'] },
  },
};
