/** The list of demo files in public/demo/, written by scripts/make-demo.ts and read by the app. */
export const DEMO_MANIFEST_VERSION = 1;
export const DEMO_SEED = 2026;

export interface DemoManifest {
  version: number;
  note: string;
  seed: number;
  /** File names relative to the manifest. */
  models: { model: string; clustered: string; graded: string }[];
}

/** "demo-model-a (simulated)" → "demo-model-a". */
export function demoFileStem(model: string): string {
  return model.replace(/\s*\(.*\)\s*$/, '').replace(/[^\w-]+/g, '-');
}
