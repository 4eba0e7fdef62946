/**
 * Training documents from labels a user already has, for `tres train`:
 * - a labels file (`--labels FILE`): one `TARGET LABEL` per line, TARGET a file path (relative to
 *   the labels file) or a URL, LABEL `relevant`/`irrelevant` (or 1/0, yes/no, true/false); a URL
 *   is read from the crawl given with `--crawl DIR` (its pages.warc.gz keeps every page's body);
 * - a finished crawl's labels (`--crawl DIR` alone): the labels given in its dashboard.
 * Every complaint names the file and line, or the crawl and URL.
 */
import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';
import { ConfigError } from '../common/index.js';
import type { LabeledDocument } from '../relevance/index.js';
import { documentProblem, readDocumentFile } from '../relevance/index.js';
import { CrawlReader, readPageText, storePaths } from '../store/index.js';

/** One line of a labels file. */
export interface LabelLine {
  line: number;
  target: string;
  label: 0 | 1;
}

const LABEL_WORDS: Record<string, 0 | 1> = {
  relevant: 1,
  irrelevant: 0,
  '1': 1,
  '0': 0,
  yes: 1,
  no: 0,
  true: 1,
  false: 0,
};

const isUrl = (target: string) => /^https?:\/\//i.test(target);

/**
 * Reads a labels file: lines `TARGET LABEL` (tab or spaces between; the label is the last word),
 * blank lines and lines starting with `#` skipped.
 * @throws ConfigError naming the file and line of a line without a known label.
 */
export function readLabelsFile(path: string): LabelLine[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a folder' : String(code);
    throw new ConfigError(`--labels ${path}: cannot read it (${why})`, {
      cause: error,
      context: { file: path },
    });
  }
  const out: LabelLine[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    const match = /^(.*\S)\s+(\S+)$/.exec(line);
    const label = match ? LABEL_WORDS[match[2]!.toLowerCase()] : undefined;
    if (!match || label === undefined) {
      throw new ConfigError(
        `--labels ${path}:${i + 1}: ${JSON.stringify(line)} is not "TARGET LABEL" (TARGET a file or URL, LABEL relevant or irrelevant)`,
        { context: { file: path, line: i + 1 } },
      );
    }
    out.push({ line: i + 1, target: match[1]!, label });
  });
  if (out.length === 0)
    throw new ConfigError(`--labels ${path}: no labelled lines`, { context: { file: path } });
  return out;
}

/** Text of the pages of a crawl by URL (requested or final), read from its WARC on demand. */
class CrawlTexts {
  private readonly ranges = new Map<string, { range: [number, number] | undefined; title: string }>();
  private readonly warc: string;

  constructor(private readonly dir: string) {
    this.warc = storePaths(dir).warc;
    const reader = CrawlReader.open(dir);
    try {
      for (const p of reader.pages()) {
        if (!p.isPage) continue;
        const entry = { range: p.warcRange, title: p.title ?? '' };
        this.ranges.set(p.url, entry);
        this.ranges.set(p.finalUrl, entry);
      }
    } finally {
      reader.close();
    }
  }

  /** The page's title and text, or why there is none. */
  read(url: string): { title: string; text: string } | { why: string } {
    const entry = this.ranges.get(url);
    if (!entry) return { why: `not a page fetched by the crawl in ${this.dir}` };
    if (!entry.range) return { why: `the crawl in ${this.dir} kept no WARC record of it (--no-warc)` };
    return { title: entry.title, text: readPageText(this.warc, entry.range[0], entry.range[1]) };
  }
}

/**
 * Labelled documents from `--labels` and/or `--crawl` (see the module comment).
 * @throws ConfigError naming the file and line, or the crawl and URL, of each bad label (unless
 *   `isSkippingBad`, which only warns through `warn`), or when a class is missing.
 */
export function labelledDocuments(
  o: { labels?: string; crawl?: string; isSkippingBad: boolean },
  warn: (line: string) => void,
): LabeledDocument[] {
  const texts = o.crawl === undefined ? undefined : new CrawlTexts(o.crawl);
  const docs: LabeledDocument[] = [];
  const problems: string[] = [];
  const add = (
    source: string,
    url: string,
    read: { title: string; text: string } | { why: string },
    label: 0 | 1,
  ) => {
    if ('why' in read) {
      problems.push(`${source}: ${read.why}`);
      return;
    }
    const why = documentProblem(read);
    if (why !== undefined) problems.push(`${source}: ${why}`);
    else docs.push({ url, title: read.title, text: read.text, label, source });
  };
  if (o.labels !== undefined) {
    const base = dirname(o.labels);
    for (const l of readLabelsFile(o.labels)) {
      const source = `${o.labels}:${l.line}`;
      if (isUrl(l.target)) {
        if (!texts) {
          problems.push(`${source}: ${l.target} is a URL: give --crawl DIR, the crawl that fetched it`);
          continue;
        }
        add(source, l.target, texts.read(l.target), l.label);
      } else {
        const path = isAbsolute(l.target) ? l.target : join(base, l.target);
        const read = readDocumentFile(path, l.label);
        if ('why' in read) problems.push(`${source}: ${path}: ${read.why}`);
        else docs.push({ ...read, source });
      }
    }
  } else if (o.crawl !== undefined && texts) {
    const reader = CrawlReader.open(o.crawl);
    const labels = (() => {
      try {
        return reader.labels();
      } finally {
        reader.close();
      }
    })();
    if (labels.length === 0) {
      throw new ConfigError(
        `--crawl ${o.crawl}: the crawl holds no labels; label pages in its dashboard (tres ui ${o.crawl}, or tres crawl --ui), or give --labels FILE`,
        { context: { file: o.crawl } },
      );
    }
    for (const l of labels)
      add(`${o.crawl} label ${l.id} (${l.url})`, l.url, texts.read(l.url), l.isRelevant ? 1 : 0);
  }
  if (problems.length > 0) {
    const listed = problems.slice(0, 5).join('\n  ');
    const more = problems.length > 5 ? `\n  ... and ${problems.length - 5} more` : '';
    if (!o.isSkippingBad) {
      throw new ConfigError(
        `${problems.length} bad label(s):\n  ${listed}${more}\nfix or remove them, or skip them with --skip-bad`,
      );
    }
    warn(`skipped ${problems.length} bad label(s):\n  ${listed}${more}`);
  }
  const relevant = docs.filter((d) => d.label === 1).length;
  const where = o.labels ?? o.crawl;
  if (relevant === 0 || relevant === docs.length) {
    throw new ConfigError(
      `${where}: every usable label says ${relevant === 0 ? 'irrelevant' : 'relevant'}; both classes are needed`,
    );
  }
  return docs;
}
