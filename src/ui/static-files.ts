/**
 * The dashboard's static files: its page, script and style (src/ui/static, found beside the
 * compiled module or in the source tree) and uPlot's dist files from node_modules, so the page
 * works offline (no CDN).
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

/** Folder of the page's own files. */
export function staticDir(): string {
  const beside = join(here, 'static');
  if (existsSync(join(beside, 'index.html'))) return beside;
  return join(here, '..', '..', 'src', 'ui', 'static');
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
};

/** URL path -> file, fixed at start (nothing else on disk can be served). */
export function staticRoutes(): Map<string, string> {
  const dir = staticDir();
  const uplot = dirname(createRequire(import.meta.url).resolve('uplot/dist/uPlot.iife.min.js'));
  return new Map([
    ['/', join(dir, 'index.html')],
    ['/dashboard.js', join(dir, 'dashboard.js')],
    ['/dashboard.css', join(dir, 'dashboard.css')],
    ['/api/openapi.json', join(dir, 'openapi.json')],
    ['/vendor/uPlot.iife.min.js', join(uplot, 'uPlot.iife.min.js')],
    ['/vendor/uPlot.min.css', join(uplot, 'uPlot.min.css')],
  ]);
}

/** Content type and bytes of a static file (read once, then cached). */
export function readStatic(path: string, cache: Map<string, Buffer>): { type: string; body: Buffer } {
  let body = cache.get(path);
  if (!body) {
    body = readFileSync(path);
    cache.set(path, body);
  }
  const ext = path.slice(path.lastIndexOf('.'));
  return { type: TYPES[ext] ?? 'application/octet-stream', body };
}
