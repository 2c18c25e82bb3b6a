/**
 * Export of a chart as a standalone SVG file or a PNG image.
 *
 * Charts are styled by the page's CSS (classes and theme variables), which a saved SVG file does
 * not carry. The export walks the live chart and its clone side by side and writes each
 * element's resolved presentation properties inline, so the file looks as it did on screen, in
 * the theme it was shown in, with no reference to the page.
 */
const INLINED = [
  'fill', 'fill-opacity', 'stroke', 'stroke-width', 'stroke-opacity', 'stroke-dasharray', 'opacity',
  'font-family', 'font-size', 'font-weight', 'text-anchor', 'dominant-baseline', 'visibility',
] as const;

/** The chart as the text of a standalone SVG document. */
export function serializeChart(svg: SVGSVGElement): string {
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
  clone.setAttribute('xmlns', 'http://www.w3.org/2000/svg');
  clone.setAttribute('width', String(width));
  clone.setAttribute('height', String(height));
  // A background, so a dark-theme export is not white text on a transparent canvas.
  const bg = document.createElementNS('http://www.w3.org/2000/svg', 'rect');
  bg.setAttribute('width', '100%');
  bg.setAttribute('height', '100%');
  bg.setAttribute('fill', getComputedStyle(document.body).backgroundColor || '#ffffff');
  clone.insertBefore(bg, clone.firstChild);
  return `<?xml version="1.0" encoding="UTF-8"?>\n${new XMLSerializer().serializeToString(clone)}`;
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

export function downloadBlob(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  document.body.appendChild(a);
  a.click();
  a.remove();
  // Revoke later: some browsers start the download asynchronously.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** A file name from a chart title: lower case, dashes, no characters a file system dislikes. */
export function chartFileName(title: string, ext: 'svg' | 'png'): string {
  const base = title.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 80) || 'chart';
  return `${base}.${ext}`;
}

export async function exportChart(svg: SVGSVGElement, title: string, format: 'svg' | 'png'): Promise<void> {
  const text = serializeChart(svg);
  if (format === 'svg') {
    downloadBlob(new Blob([text], { type: 'image/svg+xml' }), chartFileName(title, 'svg'));
    return;
  }
  const box = svg.viewBox.baseVal;
  downloadBlob(await svgToPng(text, box.width || svg.clientWidth, box.height || svg.clientHeight), chartFileName(title, 'png'));
}
