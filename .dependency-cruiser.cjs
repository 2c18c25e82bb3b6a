/**
 * The layer rules of docs/ARCHITECTURE.md, checked by `npm test` (npm run check:layers).
 * Floors, from the ground up:
 *   1  core/ (pure statistics), model/ (the domain: data shapes, ports, tables)
 *   2  providers/ formats/ store/ clustering/ grading/ pipeline/   (stages, readers, stores)
 *   3  features: multiple-choice/ batch/ share/ export/ demo/ hub/          (use the floors below, never each other)
 *   4  workers/   (wires real stages to real stores and providers)
 *   5  ui/  cli/  (entry points)
 */
const FLOOR1 = '^src/(core|model)/';
const FLOOR2 = '^src/(providers|formats|store|clustering|grading|pipeline)/';
const FEATURES = ['multiple-choice', 'batch', 'share', 'export', 'demo', 'hub'];
const FLOOR3 = `^src/(${FEATURES.join('|')})/`;
const ABOVE2 = `^src/(${FEATURES.join('|')}|workers|ui)/|^src/main\\.ts$|^cli/`;

module.exports = {
  forbidden: [
    { name: 'no-circular', severity: 'error', comment: 'Files that import each other in a loop.', from: { path: '^(src|cli)/' }, to: { circular: true } },
    { name: 'core-is-pure', severity: 'error', comment: 'core/ imports only core/.', from: { path: '^src/core/' }, to: { path: '^src/(?!core/)|^cli/|^node:|^(?!\\.)' , pathNot: '^src/core/' } },
    { name: 'model-on-core', severity: 'error', comment: 'model/ imports only core/ and model/.', from: { path: '^src/model/' }, to: { pathNot: '^src/(core|model)/' } },
    { name: 'floor2-no-upward', severity: 'error', comment: 'providers, formats, store, clustering, grading and pipeline import only floors 1 and 2.', from: { path: FLOOR2 }, to: { path: ABOVE2 } },
    { name: 'features-no-upward', severity: 'error', comment: 'A feature folder imports only floors 1 and 2.', from: { path: FLOOR3 }, to: { path: '^src/(workers|ui)/|^cli/' } },
    ...FEATURES.map((f) => ({
      name: `feature-${f}-no-sibling`, severity: 'error', comment: 'A feature folder never imports a sibling feature folder.',
      from: { path: `^src/${f}/` }, to: { path: FLOOR3, pathNot: `^src/${f}/` },
    })),
    { name: 'workers-no-upward', severity: 'error', comment: 'workers/ never import ui/ or cli/.', from: { path: '^src/workers/' }, to: { path: '^src/ui/|^cli/' } },
    { name: 'ui-no-store', severity: 'error', comment: 'The page never opens IndexedDB: ui/ talks to workers.', from: { path: '^src/ui/' }, to: { path: '^src/store/|^node_modules/idb/' } },
    { name: 'ui-no-network', severity: 'error', comment: 'ui/ never calls a provider: requests go from workers.', from: { path: '^src/ui/' }, to: { path: '^src/providers/(http|openai|anthropic|gemini|index|wire)\\.ts$' } },
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
