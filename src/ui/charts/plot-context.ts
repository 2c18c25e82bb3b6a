/**
 * What a chart's containers hand to the layers inside them, through Svelte context (as LayerCake
 * and Observable Plot do): the frame's size and tooltip (`ChartFrame`), and a plot's scales and
 * edges (`Plot`). A chart is a frame, one or more plots, and the layers it stacks in them; a
 * layer reads the scales when it is created, so no layer builds or repeats a scale.
 */
import { getContext, setContext } from 'svelte';
import { scaleBand, scaleLinear, scaleLog, type ScaleBand, type ScaleContinuousNumeric } from 'd3-scale';

export type ContinuousScale = ScaleContinuousNumeric<number, number>;
export type XScale = ContinuousScale | ScaleBand<string>;

/** How a plot builds a scale, in the words of d3-scale. */
export type ScaleSpec =
  /** `nice`: tick count the domain is rounded out to (d3's `.nice(count)`). */
  | { type?: 'linear'; domain: readonly [number, number]; nice?: number }
  | { type: 'log'; domain: readonly [number, number]; base?: number }
  | { type: 'band'; domain: readonly string[]; paddingInner?: number; paddingOuter?: number };
export type ContinuousSpec = Exclude<ScaleSpec, { type: 'band' }>;

export interface PlotScales {
  readonly x: XScale;
  readonly y: ContinuousScale;
  /** Edges of the plotting area in the SVG's viewBox units: the scales' ranges. */
  readonly left: number;
  readonly right: number;
  readonly top: number;
  readonly bottom: number;
}

export interface FrameContext {
  readonly width: number;
  readonly height: number;
  /** How much larger than set its text is drawn in viewBox units (1 unless shown narrower than its viewBox). */
  readonly textScale: number;
  /** Shows `text` as the tooltip of a mark anchored at (x, y), in viewBox units. */
  show(text: string, x: number, y: number): void;
  hide(): void;
}

const PLOT = Symbol('plot');
const FRAME = Symbol('chart frame');
const TEXT_SIZE = Symbol('chart text size');

/**
 * A page can draw its charts' text larger (the classroom's large text for a projector): the
 * factor is read by every frame below it, whose text scale is at least that, so the charts'
 * margins grow with their text as they do on a narrow screen.
 */
export const setChartTextSize = (factor: () => number): void => void setContext(TEXT_SIZE, factor);
export const getChartTextSize = (): (() => number) => getContext<(() => number) | undefined>(TEXT_SIZE) ?? (() => 1);

export const setPlot = (plot: PlotScales): PlotScales => setContext(PLOT, plot);
/** The enclosing plot; a layer outside one is a mistake in the chart, so this throws. */
export function getPlot(): PlotScales {
  const plot = getContext<PlotScales | undefined>(PLOT);
  if (!plot) throw new Error('A chart layer must sit inside a <Plot>.');
  return plot;
}
export const getParentPlot = (): PlotScales | undefined => getContext<PlotScales | undefined>(PLOT);

export const setFrame = (frame: FrameContext): FrameContext => setContext(FRAME, frame);
/** The enclosing frame's tooltip, or one that shows nothing (a plot drawn outside a frame, as in tests). */
export function getTooltip(): Pick<FrameContext, 'show' | 'hide'> {
  return getContext<FrameContext | undefined>(FRAME) ?? { show: () => {}, hide: () => {} };
}
export const getFrame = (): FrameContext | undefined => getContext<FrameContext | undefined>(FRAME);

export function continuousScale(spec: ContinuousSpec, range: [number, number]): ContinuousScale {
  if (spec.type === 'log') return scaleLog().base(spec.base ?? 10).domain(spec.domain).range(range);
  const scale = scaleLinear().domain(spec.domain).range(range);
  return spec.nice === undefined ? scale : scale.nice(spec.nice);
}

export function xScaleOf(spec: ScaleSpec, range: [number, number]): XScale {
  if (spec.type !== 'band') return continuousScale(spec, range);
  return scaleBand<string>()
    .domain(spec.domain)
    .range(range)
    .paddingInner(spec.paddingInner ?? 0)
    .paddingOuter(spec.paddingOuter ?? 0);
}

export const isBand = (scale: XScale): scale is ScaleBand<string> => 'bandwidth' in scale;

/** A mark's option that is either one value for every datum or read from each datum. */
export type Channel<T, V> = V | ((d: T) => V);
export function valueOf<T, V>(channel: Channel<T, V> | undefined, d: T): V | undefined {
  return typeof channel === 'function' ? (channel as (d: T) => V)(d) : channel;
}

/** Where a mark sits horizontally: a band's key or a value (`x`), or a span of values (`x1`–`x2`). */
export interface XChannels<T> {
  x?: (d: T) => string | number;
  x1?: (d: T) => number;
  x2?: (d: T) => number;
}

/**
 * Left and right of a mark in viewBox units: the whole band of a band key, the span x1–x2, or a
 * point (left = right) for a value on a continuous scale.
 */
export function xExtent<T>(scale: XScale, channels: XChannels<T>, d: T): [number, number] {
  const at = (v: string | number) => (scale as (v: string | number) => number | undefined)(v) ?? 0;
  if (channels.x1 && channels.x2) return [at(channels.x1(d)), at(channels.x2(d))];
  if (!channels.x) throw new Error('A mark needs x, or x1 and x2.');
  const start = at(channels.x(d));
  return [start, isBand(scale) ? start + scale.bandwidth() : start];
}

/**
 * Top and height of a rectangle between the values `from` and `to` on a y scale; at least
 * `minHeight` tall, growing away from `from` (so a bar of 0 still shows a sliver above its base).
 */
export function yBox(y: ContinuousScale, from: number, to: number, minHeight = 0): { y: number; height: number } {
  const a = y(from);
  const b = y(to);
  const height = Math.abs(a - b);
  if (height >= minHeight) return { y: Math.min(a, b), height };
  return { y: b <= a ? a - minHeight : a, height: minHeight };
}
