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
    // The black-box uncertainty scores (issue 29): one variable each, so no two share a colour.
    case 'semantic_entropy':
      return 'var(--series-semantic_entropy)';
    case 'num_sets':
      return 'var(--series-num_sets)';
    case 'eigv':
      return 'var(--series-eigv)';
    case 'degree':
      return 'var(--series-degree)';
    case 'eccentricity':
      return 'var(--series-eccentricity)';
    case 'lexical_similarity':
      return 'var(--series-lexical_similarity)';
    case 'p_true':
      return 'var(--series-p_true)';
    case 'semantic_entropy_weighted':
      return 'var(--series-semantic_entropy_weighted)';
    default:
      return 'var(--series-other)';
  }
}

export type MarkerShape = 'circle' | 'square' | 'triangle' | 'diamond' | 'cross' | 'star' | 'wye' | 'triangle-down' | 'triangle-left' | 'triangle-right' | 'pentagon' | 'hexagon' | 'bowtie' | 'hourglass';

const SHAPES: Record<string, MarkerShape> = {
  sem1: 'circle',
  sem2: 'square',
  verbalized: 'triangle',
  stated: 'diamond',
  logprob: 'cross',
  entropyConfidence: 'star',
  semantic_entropy: 'triangle-down',
  num_sets: 'pentagon',
  eigv: 'hexagon',
  degree: 'triangle-left',
  eccentricity: 'triangle-right',
  lexical_similarity: 'bowtie',
  p_true: 'wye',
  semantic_entropy_weighted: 'hourglass',
};

/** The marker shape of a signal: a different one for each signal the report can hold. */
export function signalShape(signal: SignalName): MarkerShape {
  return SHAPES[signal] ?? 'wye';
}

/**
 * A filled regular polygon of `sides` corners, the first at angle `start` (radians, 0 = up), as a
 * d3 symbol of the asked area; d3's own symbols run out at seven filled shapes.
 */
function polygon(sides: number, start: number): SymbolType {
  return {
    draw(context, size) {
      const r = Math.sqrt(size / ((sides / 2) * Math.sin((2 * Math.PI) / sides)));
      for (let i = 0; i < sides; i++) {
        const a = start + (i * 2 * Math.PI) / sides;
        const x = r * Math.sin(a);
        const y = -r * Math.cos(a);
        if (i === 0) context.moveTo(x, y);
        else context.lineTo(x, y);
      }
      context.closePath();
    },
  };
}

/** Two triangles tip to tip (an hourglass on its side), filled: 2a² of area. */
const bowtie: SymbolType = {
  draw(context, size) {
    const a = Math.sqrt(size / 2);
    context.moveTo(-a, -a);
    context.lineTo(a, a);
    context.lineTo(a, -a);
    context.lineTo(-a, a);
    context.closePath();
  },
};

/** The bowtie stood upright: two triangles tip to tip, one above the other. */
const hourglass: SymbolType = {
  draw(context, size) {
    const a = Math.sqrt(size / 2);
    context.moveTo(-a, -a);
    context.lineTo(a, -a);
    context.lineTo(-a, a);
    context.lineTo(a, a);
    context.closePath();
  },
};

const SYMBOLS: Record<MarkerShape, SymbolType> = {
  'triangle-down': polygon(3, Math.PI),
  'triangle-left': polygon(3, -Math.PI / 2),
  'triangle-right': polygon(3, Math.PI / 2),
  pentagon: polygon(5, 0),
  hexagon: polygon(6, 0),
  bowtie,
  hourglass,
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
