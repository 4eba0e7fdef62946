/**
 * A sandbox site whose links exist only after its script runs (for the render tests and the
 * render benchmark): every page is an empty shell plus `/app.js`, which
 * fetches `/api/links?page=N` (JSON) and writes the links into the page. The script also tries
 * to reach the cloud metadata address and a private address, and writes what happened.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

const APP_JS = `
(async () => {
  const page = Number(new URLSearchParams(location.search).get('p') ?? '0');
  const r = await fetch('/api/links?page=' + page);
  const links = await r.json();
  const list = document.getElementById('links');
  for (const href of links) {
    const a = document.createElement('a');
    a.href = href;
    a.textContent = 'crawling page ' + href;
    list.appendChild(a);
  }
  for (const [id, url] of [['meta', 'http://169.254.169.254/latest/meta-data/'], ['intranet', 'http://10.1.2.3/admin']]) {
    const p = document.createElement('p');
    p.id = id;
    try { await fetch(url); p.textContent = id + ' reached'; } catch { p.textContent = id + ' refused'; }
    document.body.appendChild(p);
  }
  document.getElementById('state').textContent = 'rendered';
})();
`;

/** The page shell: no link in the HTML as served. */
function shell(page: number): string {
  return `<!doctype html><html><head><title>js page ${page}</title></head><body><p id="state">shell</p><p>a crawling page</p><div id="links"></div><script src="/app.js"></script></body></html>`;
}

/**
 * Handler of the script site with `pages` pages (`/?p=0` .. `/?p=pages-1`); page N links to
 * pages 2N+1 and 2N+2 (a binary tree), through the script only.
 */
export function scriptSiteHandler(pages: number) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname === '/robots.txt') {
      res.writeHead(404).end();
    } else if (url.pathname === '/app.js') {
      res.writeHead(200, { 'content-type': 'text/javascript' });
      res.end(APP_JS);
    } else if (url.pathname === '/api/links') {
      const n = Number(url.searchParams.get('page') ?? '0');
      const links = [2 * n + 1, 2 * n + 2].filter((k) => k < pages).map((k) => `/?p=${k}`);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(links));
    } else if (url.pathname === '/') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(shell(Number(url.searchParams.get('p') ?? '0')));
    } else {
      res.writeHead(404).end();
    }
  };
}
