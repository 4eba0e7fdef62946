/**
 * Which package ships which HTML file, from apt's Contents indexes (the files `apt-file` reads),
 * streamed through `apt-helper cat-file` (the uncompressed index is larger than a JavaScript
 * string may be). Only HTML files under /usr/share are kept: they are the pages a package could
 * serve as a site.
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { TresError } from 'tres-crawler';
import { aptListFiles } from './package-lists.js';

/** HTML files per package: paths relative to `/`, without the leading slash. */
export type HtmlContents = Map<string, string[]>;

const HTML_LINE = /^(usr\/share\/\S.*?\.(?:html?|xhtml|shtml))\s+(\S+)$/i;

/** Adds the HTML lines of a Contents index (`path  section/pkg,section/pkg`) to `out`. */
export async function addContentsLines(lines: AsyncIterable<string>, out: HtmlContents): Promise<void> {
  for await (const line of lines) {
    const m = HTML_LINE.exec(line);
    if (!m) continue;
    const path = m[1] as string;
    for (const entry of (m[2] as string).split(',')) {
      const pkg = entry.slice(entry.lastIndexOf('/') + 1);
      let list = out.get(pkg);
      if (!list) {
        list = [];
        out.set(pkg, list);
      }
      list.push(path);
    }
  }
}

/** Streams a list file decompressed by `apt-helper cat-file`. */
function catFile(file: string): { lines: AsyncIterable<string>; done: Promise<void> } {
  const child = spawn('/usr/lib/apt/apt-helper', ['cat-file', file], { stdio: ['ignore', 'pipe', 'pipe'] });
  const done = new Promise<void>((resolveDone, reject) => {
    child.on('error', (error) =>
      reject(new TresError('TRES_DOCWEB_APT', `cannot run apt-helper: ${error.message}`, { cause: error })),
    );
    child.on('close', (code) =>
      code === 0
        ? resolveDone()
        : reject(new TresError('TRES_DOCWEB_APT', `apt-helper cat-file ${file} failed (exit ${code})`)),
    );
  });
  return { lines: createInterface({ input: child.stdout as Readable, crlfDelay: Infinity }), done };
}

/**
 * HTML files of every package in the Contents indexes of `listsDir` (`*_Contents-all*`,
 * `*_Contents-amd64*`).
 * @throws ConfigError-like TresError (TRES_DOCWEB_CONTENTS) if there is no Contents index: install
 *   apt-file and run `apt-file update`.
 */
export async function readHtmlContents(listsDir = '/var/lib/apt/lists'): Promise<HtmlContents> {
  const files = aptListFiles(listsDir, /_Contents-(all|amd64)(\.[a-z0-9]+)?$/);
  if (files.length === 0)
    throw new TresError(
      'TRES_DOCWEB_CONTENTS',
      `no apt Contents index in ${listsDir}: run \`apt-get install apt-file && apt-file update\` first`,
    );
  const out: HtmlContents = new Map();
  for (const file of files) {
    const { lines, done } = catFile(file);
    await addContentsLines(lines, out);
    await done;
  }
  return out;
}
