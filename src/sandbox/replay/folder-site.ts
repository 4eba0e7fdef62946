/**
 * Serves one request of a folder site: URL path after the prefix -> file under the site's folder,
 * joined safely (no escape with `..`, encoded `%2e%2e`, absolute paths or NUL bytes). A folder URL
 * serves its `index.html`; a folder URL without its trailing slash redirects 301 to the slash
 * form; a missing file is 404. GET and HEAD only.
 */
import { createReadStream } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join, resolve, sep } from 'node:path';
import { pipeline } from 'node:stream';
import { contentTypeOf } from './content-type.js';
import type { FileCache } from './file-cache.js';
import { sendStatus } from './responses.js';
import type { FolderSite, NormalizedSite } from './site-source.js';

const rootCache = new Map<string, string>();

function rootOf(dir: string): string {
  let root = rootCache.get(dir);
  if (root === undefined) {
    root = resolve(dir);
    rootCache.set(dir, root);
  }
  return root;
}

/**
 * Absolute file path for a raw URL path under `root`, or undefined if it is malformed or would
 * leave `root`.
 */
export function safeJoin(root: string, rawRelPath: string): string | undefined {
  let decoded: string;
  try {
    decoded = decodeURIComponent(rawRelPath);
  } catch {
    return undefined;
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return undefined;
  // join (not resolve) so that a leading '/' cannot make the path absolute; it also folds '..'.
  const abs = join(root, decoded);
  if (abs !== root && !abs.startsWith(root + sep)) return undefined;
  return abs;
}

/** Answers `req` from the folder of `site`. Never throws; I/O errors end as 404 or a destroyed response. */
export async function serveFolder(
  site: NormalizedSite & FolderSite,
  relPath: string,
  query: string,
  req: IncomingMessage,
  res: ServerResponse,
  cache: FileCache,
): Promise<void> {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.setHeader('Allow', 'GET, HEAD');
    sendStatus(req, res, 405);
    return;
  }
  const root = rootOf(site.dir);
  let abs = safeJoin(root, relPath);
  if (abs === undefined) {
    sendStatus(req, res, 404);
    return;
  }
  let found = await cache.lookup(abs);
  const isSlashForm = relPath === '' || relPath.endsWith('/');
  if (found.kind === 'dir') {
    if (!isSlashForm) {
      res.writeHead(301, { Location: `${site.prefix}${relPath}/${query}`, 'Content-Length': 0 });
      res.end();
      return;
    }
    abs = join(abs, 'index.html');
    found = await cache.lookup(abs);
  } else if (isSlashForm) {
    found = { kind: 'missing' }; // a file named with a trailing slash, as Apache does
  }
  if (found.kind !== 'file') {
    sendStatus(req, res, 404);
    return;
  }
  res.writeHead(200, {
    'Content-Type': contentTypeOf(abs),
    'Content-Length': found.size,
    'Last-Modified': new Date(found.mtimeMs).toUTCString(),
  });
  if (req.method === 'HEAD') {
    res.end();
  } else if (found.body) {
    res.end(found.body);
  } else {
    pipeline(createReadStream(abs), res, () => {
      // Errors (file vanished, client gone) end the response; pipeline destroys both streams.
    });
  }
}
