/**
 * Loads labelled training documents from folders of relevant and irrelevant pages (HTML or plain
 * text, searched recursively, in sorted order) or from JSON lines `{url, title?, text, label}`.
 * Bad input is reported as a ConfigError naming the path, never a stack trace: missing or empty
 * folders, unreadable or binary files, empty pages, non-English pages, and a dataset with only
 * one class. With `isSkippingBad` the bad documents are skipped with a warning instead.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ConfigError } from '../common/index.js';
import { parseHtml } from '../html/index.js';
import { detectLanguage, pageTokens } from '../text/index.js';
import { looksLikeHtml } from './html-text.js';
import type { LabeledDocument } from './types.js';

/** Where the documents are. */
export interface DatasetSource {
  /** Folder of relevant documents. */
  relevantDir?: string;
  /** Folder of irrelevant documents. */
  irrelevantDir?: string;
  /** JSON-lines files, one `{url, title?, text, label}` per line; label 1/0, true/false or "relevant"/"irrelevant". */
  jsonlFiles?: string[];
}

/** Options of {@link loadDataset}. */
export interface LoadDatasetOptions {
  /** Skip unreadable, empty and non-English documents with a warning instead of failing. @default false */
  isSkippingBad?: boolean;
  /** Receives warnings (skipped documents). @default console.warn */
  onWarning?: (message: string) => void;
}

const HTML_EXTENSIONS = new Set(['.html', '.htm', '.xhtml', '.shtml']);
const SKIPPED_EXTENSIONS = new Set([
  '.jpg',
  '.jpeg',
  '.png',
  '.gif',
  '.pdf',
  '.zip',
  '.gz',
  '.css',
  '.js',
  '.ico',
]);

interface Problem {
  source: string;
  why: string;
}

function listFiles(dir: string, role: string): string[] {
  let stat: ReturnType<typeof statSync>;
  try {
    stat = statSync(dir);
  } catch (cause) {
    throw new ConfigError(`${role} folder ${dir} does not exist or cannot be read`, {
      cause,
      context: { file: dir },
    });
  }
  if (!stat.isDirectory())
    throw new ConfigError(`${role} folder ${dir} is not a folder`, { context: { file: dir } });
  const out: string[] = [];
  const walk = (d: string) => {
    for (const entry of readdirSync(d, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      if (entry.name.startsWith('.')) continue;
      const path = join(d, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile() && !SKIPPED_EXTENSIONS.has(extname(entry.name).toLowerCase())) out.push(path);
    }
  };
  walk(dir);
  if (out.length === 0) {
    throw new ConfigError(`${role} folder ${dir} holds no documents (HTML or text files)`, {
      context: { file: dir },
    });
  }
  return out;
}

/** Checks one document; returns why it is bad, or undefined. */
function problemOf(doc: { title: string; text: string }): string | undefined {
  if (pageTokens(doc.title, doc.text).length === 0) return 'no words (empty page)';
  const lang = detectLanguage(`${doc.title} ${doc.text}`);
  if (!lang.isEnglish) return `not English (${lang.reason})`;
  return undefined;
}

function readFolder(dir: string, label: 0 | 1, docs: LabeledDocument[], problems: Problem[]): void {
  for (const path of listFiles(dir, label === 1 ? 'relevant' : 'irrelevant')) {
    const read = readDocumentFile(path, label);
    if ('why' in read) problems.push({ source: path, why: read.why });
    else docs.push(read);
  }
}

/**
 * Whether file bytes are binary as `tres train` sees them: a NUL byte in the first 4 KiB (a narrower
 * rule than the crawler's `looksBinary` in net/, which also knows file signatures).
 */
export function isBinaryForTraining(raw: Uint8Array): boolean {
  return raw.subarray(0, 4096).includes(0);
}

/**
 * One labelled document from a file (HTML through the crawler's parser, or plain text), or why
 * it cannot be one (unreadable, binary, no words, not English).
 */
export function readDocumentFile(path: string, label: 0 | 1): LabeledDocument | { why: string } {
  let raw: Buffer;
  try {
    raw = readFileSync(path);
  } catch (error) {
    return { why: `unreadable (${(error as NodeJS.ErrnoException).code ?? 'error'})` };
  }
  if (isBinaryForTraining(raw)) return { why: 'binary, not text' };
  const content = raw.toString('utf8');
  const isHtml = HTML_EXTENSIONS.has(extname(path).toLowerCase()) || looksLikeHtml(content);
  // HTML goes through the crawler's own parser, so training sees the text the crawl will see.
  const parsed = isHtml ? parseHtml(content, pathToFileURL(path).href) : undefined;
  const doc: LabeledDocument = {
    url: parsed?.canonicalUrl ?? '',
    title: parsed?.title ?? '',
    text: parsed?.text ?? content,
    label,
    source: path,
  };
  const why = problemOf(doc);
  return why === undefined ? doc : { why };
}

/** Why a document cannot be trained on (no words, not English), or undefined. */
export function documentProblem(doc: { title: string; text: string }): string | undefined {
  return problemOf(doc);
}

function parseLabel(value: unknown): 0 | 1 | undefined {
  if (value === 1 || value === true || value === '1' || value === 'relevant') return 1;
  if (value === 0 || value === false || value === '0' || value === 'irrelevant') return 0;
  return undefined;
}

function readJsonl(file: string, docs: LabeledDocument[], problems: Problem[]): void {
  let content: string;
  try {
    content = readFileSync(file, 'utf8');
  } catch (cause) {
    throw new ConfigError(`JSON-lines file ${file} cannot be read`, { cause, context: { file } });
  }
  const lines = content.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = (lines[i] as string).trim();
    if (line.length === 0) continue;
    const source = `${file}:${i + 1}`;
    let row: Record<string, unknown>;
    try {
      row = JSON.parse(line) as Record<string, unknown>;
    } catch {
      throw new ConfigError(`${source}: not valid JSON`, { context: { file } });
    }
    const label = parseLabel(row.label);
    if (label === undefined || typeof row.text !== 'string') {
      throw new ConfigError(`${source}: each line needs "text" (string) and "label" (1/0, true/false)`, {
        context: { file },
      });
    }
    const doc: LabeledDocument = {
      url: typeof row.url === 'string' ? row.url : '',
      title: typeof row.title === 'string' ? row.title : '',
      text: row.text,
      label,
      source,
    };
    const why = problemOf(doc);
    if (why !== undefined) problems.push({ source, why });
    else docs.push(doc);
  }
}

/** Throws (or, when skipping, warns) about bad documents. */
function reportProblems(problems: readonly Problem[], options: LoadDatasetOptions): void {
  if (problems.length === 0) return;
  const list = problems
    .slice(0, 5)
    .map((p) => `  ${p.source}: ${p.why}`)
    .join('\n');
  const more = problems.length > 5 ? `\n  ... and ${problems.length - 5} more` : '';
  if (options.isSkippingBad !== true) {
    throw new ConfigError(
      `${problems.length} bad document(s):\n${list}${more}\nfix or remove them, or skip them with --skip-bad`,
      { context: { file: problems[0]?.source } },
    );
  }
  (options.onWarning ?? console.warn)(`skipped ${problems.length} bad document(s):\n${list}${more}`);
}

/**
 * Loads one folder of documents (HTML or text, recursive), all with `label`; for corpora such
 * as the relevant corpus of keyword expansion.
 * @throws ConfigError naming the path: missing or empty folder, bad documents (unless skipping),
 *   or no usable document at all
 */
export function loadFolder(dir: string, label: 0 | 1, options: LoadDatasetOptions = {}): LabeledDocument[] {
  const docs: LabeledDocument[] = [];
  const problems: Problem[] = [];
  readFolder(dir, label, docs, problems);
  reportProblems(problems, options);
  if (docs.length === 0) throw new ConfigError(`no usable documents in ${dir}`, { context: { file: dir } });
  return docs;
}

/**
 * Loads and checks a labelled dataset.
 * @throws ConfigError naming the path: no source given, missing/empty folder, bad JSON line,
 *   bad documents (unless `isSkippingBad`), or only one class
 */
export function loadDataset(source: DatasetSource, options: LoadDatasetOptions = {}): LabeledDocument[] {
  const docs: LabeledDocument[] = [];
  const problems: Problem[] = [];
  const hasFolders = source.relevantDir !== undefined || source.irrelevantDir !== undefined;
  if (!hasFolders && (source.jsonlFiles ?? []).length === 0) {
    throw new ConfigError('no training data: give --relevant DIR and --irrelevant DIR, or --data FILE.jsonl');
  }
  if (hasFolders && (source.relevantDir === undefined || source.irrelevantDir === undefined)) {
    throw new ConfigError('give both --relevant DIR and --irrelevant DIR');
  }
  if (source.relevantDir !== undefined) readFolder(source.relevantDir, 1, docs, problems);
  if (source.irrelevantDir !== undefined) readFolder(source.irrelevantDir, 0, docs, problems);
  for (const file of source.jsonlFiles ?? []) readJsonl(file, docs, problems);
  reportProblems(problems, options);
  const relevant = docs.filter((d) => d.label === 1).length;
  const where = hasFolders
    ? `${source.relevantDir} / ${source.irrelevantDir}`
    : (source.jsonlFiles ?? []).join(', ');
  if (relevant === 0)
    throw new ConfigError(`no usable relevant documents in ${where}: both classes are needed`);
  if (relevant === docs.length)
    throw new ConfigError(`no usable irrelevant documents in ${where}: both classes are needed`);
  return docs;
}
