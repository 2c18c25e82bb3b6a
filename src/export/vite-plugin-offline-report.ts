/**
 * Build step for the offline report: after the app's build, a second Vite build bundles
 * src/ui/offline-viewer/viewer.html (ReportView and everything it imports, one chunk, no code
 * splitting) and inlines the JavaScript and CSS into the HTML, written as dist/report-viewer.html.
 * The app fetches that template only when the user asks for an HTML file, and embed.ts puts the
 * report inside. Hand-written rather than vite-plugin-singlefile: the job is ~40 lines and this
 * stays in step with Vite 8 / Rolldown without another dependency.
 */
import path from 'node:path';
import { build, type InlineConfig, type Plugin, type Rolldown } from 'vite';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { VIEWER_TEMPLATE_FILE } from './template-file.ts';

type RolldownOutput = Rolldown.RolldownOutput;

/** Text that must not end or confuse the inline element it is placed in. */
function inlineSafeJs(code: string): string {
  // In a module "<!--" and "</script" can only be in strings, templates, regexes or comments,
  // where \x3C means "<" too.
  return code.replace(/<(?=\/script|!--)/gi, '\\x3C');
}

function inlineSafeCss(css: string): string {
  return css.replace(/<\/style/gi, '<\\/style');
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Moves every emitted chunk and stylesheet into the HTML page and drops the separate files. */
export function inlineIntoHtml(outName: string): Plugin {
  return {
    name: 'semece-inline-into-html',
    enforce: 'post',
    generateBundle(_options, bundle) {
      const htmlFile = Object.values(bundle).find((f) => f.type === 'asset' && f.fileName.endsWith('.html'));
      if (!htmlFile || htmlFile.type !== 'asset') throw new Error('offline report: the viewer build emitted no HTML');
      let html = String(htmlFile.source);
      for (const [name, file] of Object.entries(bundle)) {
        const ref = escapeRegExp(path.basename(file.fileName));
        if (file.type === 'chunk') {
          const tag = new RegExp(`<script[^>]*src="[^"]*${ref}"[^>]*></script>`);
          if (!tag.test(html)) throw new Error(`offline report: ${file.fileName} is not referenced by the page`);
          // With one chunk, Vite leaves its preload placeholder in every dynamic import() (they are
          // inlined, nothing to preload), and the page throws "__VITE_PRELOAD__ is not defined" there.
          const code = file.code.replaceAll('__VITE_PRELOAD__', 'void 0');
          html = html.replace(tag, () => `<script type="module">${inlineSafeJs(code)}</script>`);
          delete bundle[name];
        } else if (file.fileName.endsWith('.css')) {
          const tag = new RegExp(`<link[^>]*href="[^"]*${ref}"[^>]*>`);
          html = html.replace(tag, () => `<style>${inlineSafeCss(String(file.source))}</style>`);
          delete bundle[name];
        }
      }
      if (/<link[^>]*rel="modulepreload"/.test(html)) throw new Error('offline report: a chunk was split off');
      htmlFile.source = html;
      htmlFile.fileName = outName;
    },
  };
}

function viewerBuildConfig(root: string, outDir: string, { write }: { write: boolean }): InlineConfig {
  return {
    configFile: false,
    root,
    base: './',
    logLevel: 'warn',
    plugins: [svelte(), inlineIntoHtml(VIEWER_TEMPLATE_FILE)],
    build: {
      outDir,
      write,
      emptyOutDir: false,
      target: 'es2022',
      sourcemap: false,
      assetsInlineLimit: Number.MAX_SAFE_INTEGER,
      cssCodeSplit: false,
      modulePreload: false,
      copyPublicDir: false,
      rolldownOptions: {
        input: path.resolve(root, 'src/ui/offline-viewer/viewer.html'),
        output: { codeSplitting: false },
      },
    },
  };
}

/**
 * Added to the app's plugins: builds the offline viewer template into the same outDir after the
 * app's build, and under the dev server (npm run dev) builds it in memory when it is requested.
 */
export function offlineReport(): Plugin {
  let root = process.cwd();
  let outDir = 'dist';
  let serving = false;
  return {
    name: 'semece-offline-report',
    configResolved(config) {
      serving = config.command === 'serve';
      root = config.root;
      outDir = path.resolve(config.root, config.build.outDir);
    },
    configureServer(server) {
      server.middlewares.use(async (req, res, next) => {
        if (!req.url || path.basename(req.url.split('?')[0]) !== VIEWER_TEMPLATE_FILE) return next();
        try {
          const result = (await build(viewerBuildConfig(root, outDir, { write: false }))) as RolldownOutput | RolldownOutput[];
          const outputs = (Array.isArray(result) ? result : [result]).flatMap((r) => r.output);
          const page = outputs.find((f) => f.fileName === VIEWER_TEMPLATE_FILE);
          if (!page || page.type !== 'asset') throw new Error('the viewer build emitted no page');
          res.setHeader('Content-Type', 'text/html; charset=utf-8');
          res.end(String(page.source));
        } catch (e) {
          next(e);
        }
      });
    },
    async closeBundle() {
      // The dev server also calls closeBundle when it shuts down: nothing to build then.
      if (serving) return;
      await build(viewerBuildConfig(root, outDir, { write: true }));
    },
  };
}
