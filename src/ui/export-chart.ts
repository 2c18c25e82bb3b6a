/**
 * Export of a chart as a standalone SVG file or a PNG image.
 *
 * Charts are styled by the page's CSS (classes and theme variables), which a saved SVG file does
 * not carry. The export walks the live chart and its clone side by side and writes each
 * element's resolved presentation properties inline, so the file looks as it did on screen, in
 * the theme it was shown in, with no reference to the page.
 */
import { markerPath, type MarkerShape } from './charts/signal-styles';
import { downloadBlob } from '../share/download';

const INLINED = [
  'fill', 'fill-opacity', 'stroke', 'stroke-width', 'stroke-opacity', 'stroke-dasharray', 'opacity',
  'font-family', 'font-size', 'font-weight', 'text-anchor', 'dominant-baseline', 'visibility',
] as const;

/** What a saved chart carries around its drawing, so the file stands alone on a slide or in a paper. */
export interface ChartFrameText {
  /** The chart's title (it names the model, e.g. "gpt-4o-mini: reliability"). */
  title: string;
  /** The line under it (e.g. "Sem1 ECE 0.081 (10 equal-width bins, 200 questions)"). */
  caption?: string;
  legend?: readonly { label: string; color?: string; mark?: 'swatch' | 'dash' | 'rule' | 'ring' | 'line' | 'outline'; shape?: MarkerShape; dasharray?: string }[];
}

const SVG_NS = 'http://www.w3.org/2000/svg';

/** A colour the page writes as a theme variable, resolved to the value it has now. */
function resolvedColor(color: string): string {
  if (!color.includes('var(')) return color;
  const probe = document.createElement('span');
  probe.style.color = color;
  document.body.appendChild(probe);
  const value = getComputedStyle(probe).color;
  probe.remove();
  return value;
}

function svgText(text: string, x: number, y: number, size: number, color: string, weight = 'normal'): SVGTextElement {
  const t = document.createElementNS(SVG_NS, 'text');
  t.setAttribute('x', String(x));
  t.setAttribute('y', String(y));
  t.setAttribute('style', `font-family:system-ui,sans-serif;font-size:${size}px;font-weight:${weight};fill:${color}`);
  t.textContent = text;
  return t;
}

/**
 * The chart inside a frame of its own: title above, legend keys, the drawing, the caption below,
 * all as SVG, so a PNG or SVG export is not bare axes.
 */
function framed(chart: SVGSVGElement, width: number, height: number, frame: ChartFrameText): SVGSVGElement {
  const color = getComputedStyle(document.body).color || '#000000';
  const pad = 12;
  const outer = document.createElementNS(SVG_NS, 'svg') as SVGSVGElement;
  let y = pad + 16;
  outer.appendChild(svgText(frame.title, pad, y, 16, color, '600'));
  y += 10;
  if (frame.legend?.length) {
    let x = pad;
    y += 14;
    for (const item of frame.legend) {
      if (item.color) {
        const c = resolvedColor(item.color);
        const drawn = item.shape || item.mark === 'ring' ? 'path' : item.mark === 'dash' || item.mark === 'rule' || item.mark === 'line' ? 'line' : 'rect';
        const mark = document.createElementNS(SVG_NS, drawn);
        if (drawn === 'path') {
          // A marker shape, or a ring (the hollow dot of an answer graded incorrect).
          mark.setAttribute('d', markerPath(item.shape ?? 'circle', 50));
          mark.setAttribute('transform', `translate(${x + 5},${y - 5})`);
          mark.setAttribute('style', item.mark === 'ring' ? `fill:none;stroke:${c};stroke-width:1.5` : `fill:${c}`);
        } else if (mark instanceof SVGRectElement) {
          mark.setAttribute('x', String(x));
          mark.setAttribute('y', String(y - 10));
          mark.setAttribute('width', '10');
          mark.setAttribute('height', '10');
          mark.setAttribute('style', item.mark === 'outline' ? `fill:none;stroke:${c};stroke-width:1.5` : `fill:${c}`);
        } else {
          const upright = item.mark === 'rule';
          mark.setAttribute('x1', String(upright ? x + 5 : x));
          mark.setAttribute('x2', String(upright ? x + 5 : x + 14));
          mark.setAttribute('y1', String(upright ? y - 11 : y - 5));
          mark.setAttribute('y2', String(upright ? y + 1 : y - 5));
          const dashes = item.mark === 'dash' ? '4 3' : item.mark === 'line' ? item.dasharray : undefined;
          mark.setAttribute('style', `stroke:${c};stroke-width:2${dashes ? `;stroke-dasharray:${dashes}` : ''}`);
        }
        outer.appendChild(mark);
        x += 18;
      }
      outer.appendChild(svgText(item.label, x, y, 12, color));
      // No text metrics in a detached SVG: about 0.6 em per character is close enough for spacing.
      x += item.label.length * 7 + 16;
    }
    y += 8;
  }
  chart.setAttribute('x', '0');
  chart.setAttribute('y', String(y));
  outer.appendChild(chart);
  y += height;
  if (frame.caption) {
    y += 18;
    outer.appendChild(svgText(frame.caption, pad, y, 12, color));
  }
  y += pad;
  outer.setAttribute('viewBox', `0 0 ${width} ${y}`);
  outer.setAttribute('width', String(width));
  outer.setAttribute('height', String(y));
  return outer;
}

/** The chart as the text of a standalone SVG document (framed with its title, legend and caption when given). */
export function serializeChart(svg: SVGSVGElement, frame?: ChartFrameText): string {
  const clone = svg.cloneNode(true) as SVGSVGElement;
  const live = [svg, ...svg.querySelectorAll('*')] as Element[];
  const copies = [clone, ...clone.querySelectorAll('*')] as Element[];
  for (let i = 0; i < live.length; i++) {
    const computed = getComputedStyle(live[i]);
    const style: string[] = [];
    for (const prop of INLINED) {
      const value = computed.getPropertyValue(prop);
      if (value) style.push(`${prop}:${value}`);
    }
    copies[i].setAttribute('style', style.join(';'));
    // Presentation attributes that name a theme variable would not resolve in a file.
    for (const attr of ['fill', 'stroke']) {
      if (copies[i].getAttribute(attr)?.includes('var(')) copies[i].setAttribute(attr, computed.getPropertyValue(attr));
    }
    // Interactive attributes mean nothing in a file.
    copies[i].removeAttribute('tabindex');
    copies[i].removeAttribute('class');
  }
  const box = svg.viewBox.baseVal;
  const width = box && box.width ? box.width : svg.clientWidth;
  const height = box && box.height ? box.height : svg.clientHeight;
  clone.setAttribute('width', String(width));
  clone.setAttribute('height', String(height));
  const doc = frame ? framed(clone, width, height, frame) : clone;
  doc.setAttribute('xmlns', SVG_NS);
  // A background, so a dark-theme export is not white text on a transparent canvas.
  const bg = document.createElementNS(SVG_NS, 'rect');
  bg.setAttribute('width', '100%');
  bg.setAttribute('height', '100%');
  bg.setAttribute('fill', getComputedStyle(document.body).backgroundColor || '#ffffff');
  doc.insertBefore(bg, doc.firstChild);
  return `<?xml version="1.0" encoding="UTF-8"?>\n${new XMLSerializer().serializeToString(doc)}`;
}

/** Rasterises SVG text at `scale` times its size; rejects with a message when the browser cannot. */
export function svgToPng(svgText: string, width: number, height: number, scale = 2): Promise<Blob> {
  return new Promise((resolve, reject) => {
    const url = URL.createObjectURL(new Blob([svgText], { type: 'image/svg+xml' }));
    const img = new Image();
    img.onload = () => {
      const canvas = document.createElement('canvas');
      canvas.width = Math.round(width * scale);
      canvas.height = Math.round(height * scale);
      const ctx = canvas.getContext('2d');
      if (!ctx) {
        URL.revokeObjectURL(url);
        reject(new Error('This browser cannot draw to a canvas, so no PNG can be made.'));
        return;
      }
      ctx.scale(scale, scale);
      ctx.drawImage(img, 0, 0, width, height);
      URL.revokeObjectURL(url);
      canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('The PNG could not be encoded.'))), 'image/png');
    };
    img.onerror = () => {
      URL.revokeObjectURL(url);
      reject(new Error('The chart could not be rendered as an image.'));
    };
    img.src = url;
  });
}

/** A file name from a chart title: lower case, dashes, no characters a file system dislikes. */
export function chartFileName(title: string, ext: 'svg' | 'png'): string {
  const base = title.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 80) || 'chart';
  return `${base}.${ext}`;
}

export async function exportChart(svg: SVGSVGElement, frame: ChartFrameText, format: 'svg' | 'png'): Promise<void> {
  const text = serializeChart(svg, frame);
  if (format === 'svg') {
    downloadBlob(new Blob([text], { type: 'image/svg+xml' }), chartFileName(frame.title, 'svg'));
    return;
  }
  // The framed document's own size (title, legend and caption around the drawing).
  const size = /<svg[^>]*\swidth="([\d.]+)"[^>]*\sheight="([\d.]+)"/.exec(text);
  const box = svg.viewBox.baseVal;
  const width = size ? Number(size[1]) : box.width || svg.clientWidth;
  const height = size ? Number(size[2]) : box.height || svg.clientHeight;
  downloadBlob(await svgToPng(text, width, height), chartFileName(frame.title, 'png'));
}
