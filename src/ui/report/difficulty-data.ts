/**
 * What the difficulty view draws for one model, memoised on the model's row array: the view
 * asks for it when shown, and the report asks for it while the page is idle, so switching to
 * the view on a 40,000-question report only has to draw.
 */
import type { ModelReport, SignalName } from '../../model/report';
import { regimeBoundaries } from '../../core/regimes';
import { gapData, typicalN, type GapData } from '../charts/gap-data';
import { modelRegimeBars, type RegimeBar } from '../charts/regime-data';
import { isPaperSignal, SIGNAL_ORDER } from '../../model/signals';

export interface DifficultyView {
  model: string;
  data: GapData;
  boundaries?: { jensen: number; large: number };
  signals: SignalName[];
  bars: RegimeBar[];
  n: number;
}

const cache = new WeakMap<ModelReport, DifficultyView>();

export function difficultyView(m: ModelReport): DifficultyView {
  const hit = cache.get(m);
  if (hit) return hit;
  const signals = SIGNAL_ORDER.filter((s) => isPaperSignal(s) && m.metrics.signals[s]);
  const n = typicalN(m.questions);
  const view: DifficultyView = {
    model: m.model,
    data: gapData(m.questions),
    boundaries: Number.isFinite(n) ? regimeBoundaries(n, m.metrics.meanClasses) : undefined,
    signals,
    bars: modelRegimeBars(m, signals),
    n,
  };
  cache.set(m, view);
  return view;
}

/** Computes the views of every model when the browser is idle (one model per idle slot). */
export function prefetchDifficulty(models: readonly ModelReport[]): () => void {
  const idle: (cb: () => void) => number = globalThis.requestIdleCallback ?? ((cb) => setTimeout(cb, 50) as unknown as number);
  const cancel: (id: number) => void = globalThis.cancelIdleCallback ?? clearTimeout;
  let i = 0;
  let handle = 0;
  const step = () => {
    if (i >= models.length) return;
    difficultyView(models[i++]);
    handle = idle(step);
  };
  handle = idle(step);
  return () => cancel(handle);
}
