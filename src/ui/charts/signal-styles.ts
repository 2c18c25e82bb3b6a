/**
 * Colours and marker shapes of the confidence signals, shared by every chart and table (names
 * and labels are the domain's: src/model/signals.ts). Each signal has both, so two signals can
 * be told apart without seeing colour (WCAG 1.4.1); the colours are Okabe & Ito's colour-blind-
 * safe set, chosen per theme in theme.css.
 */
import { symbol, symbolCircle, symbolCross, symbolDiamond, symbolSquare, symbolStar, symbolTriangle, symbolWye, type SymbolType } from 'd3-shape';
import type { SignalName } from '../../model/signals';

/** CSS colour of a signal; a variable so the theme decides. */
export function signalColor(signal: SignalName): string {
  switch (signal) {
    case 'sem1':
    case 'sem2':
    case 'verbalized':
    case 'stated':
    case 'logprob':
      return `var(--series-${signal})`;
    case 'entropyConfidence':
      return 'var(--series-entropy)';
    default:
      return 'var(--series-other)';
  }
}

export type MarkerShape = 'circle' | 'square' | 'triangle' | 'diamond' | 'cross' | 'star' | 'wye';

const SHAPES: Record<string, MarkerShape> = {
  sem1: 'circle',
  sem2: 'square',
  verbalized: 'triangle',
  stated: 'diamond',
  logprob: 'cross',
  entropyConfidence: 'star',
};

/** The marker shape of a signal: a different one for each signal the report can hold. */
export function signalShape(signal: SignalName): MarkerShape {
  return SHAPES[signal] ?? 'wye';
}

const SYMBOLS: Record<MarkerShape, SymbolType> = {
  circle: symbolCircle,
  square: symbolSquare,
  triangle: symbolTriangle,
  diamond: symbolDiamond,
  cross: symbolCross,
  star: symbolStar,
  wye: symbolWye,
};

/** SVG path of a marker centred on (0, 0), `area` square units in size (d3-shape's symbols). */
export function markerPath(shape: MarkerShape, area = 64): string {
  return symbol(SYMBOLS[shape], area)() ?? '';
}
