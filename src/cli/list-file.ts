/**
 * Text files of one item per line (seeds, keywords): `#` starts a comment, blank lines are
 * skipped, and every complaint names the file and the line.
 */
import { readFileSync } from 'node:fs';
import { ConfigError } from '../common/index.js';
import { normalizeUrl } from '../url/index.js';

/** One item of a list file with its line number (from 1). */
export interface ListLine {
  line: number;
  text: string;
}

/** Complaints listed in one message before "and N more". */
const MAX_LISTED = 3;

/**
 * The items of a list file with their line numbers.
 * @throws ConfigError naming `what` and the path if the file cannot be read.
 */
export function readListLines(path: string, what: string): ListLine[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as { code?: string }).code;
    const reason =
      code === 'ENOENT'
        ? 'no such file'
        : code === 'EISDIR'
          ? 'it is a folder; give the file inside it (one item per line)'
          : (error as Error).message;
    throw new ConfigError(`cannot read ${what} ${path}: ${reason}`, {
      cause: error,
      context: { file: path },
    });
  }
  const out: ListLine[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    const item = raw.replace(/#.*$/, '').trim();
    if (item !== '') out.push({ line: i + 1, text: item });
  });
  return out;
}

/** The items of a list file. @throws ConfigError as {@link readListLines}. */
export function readListFile(path: string, what: string): string[] {
  return readListLines(path, what).map((l) => l.text);
}

/**
 * Reads a seeds file: one http(s) URL per line. Every line is checked the way the crawler will
 * normalise it, so a bad seed is refused before anything is written.
 * @throws ConfigError with `file:line` of each bad seed (the first few), or if the file is
 *   missing, unreadable or has no URL.
 */
export function readSeedsFile(path: string, what = 'seeds file'): string[] {
  const lines = readListLines(path, what);
  if (lines.length === 0) {
    throw new ConfigError(`${what} ${path} has no URLs (one http(s) URL per line, # starts a comment)`, {
      context: { file: path },
    });
  }
  const bad = lines
    .map((l) => ({ ...l, why: seedProblem(l.text) }))
    .filter((l): l is ListLine & { why: string } => l.why !== undefined);
  if (bad.length > 0) {
    const listed = bad
      .slice(0, MAX_LISTED)
      .map((l) => `${path}:${l.line}: ${JSON.stringify(l.text)} ${l.why}`)
      .join('; ');
    const more = bad.length > MAX_LISTED ? ` (and ${bad.length - MAX_LISTED} more)` : '';
    throw new ConfigError(`${what} has lines that are not http(s) URLs: ${listed}${more}`, {
      context: { file: path, line: bad[0]!.line },
    });
  }
  return lines.map((l) => l.text);
}

/**
 * Why a seed line is not one http(s) URL, with what to do, or undefined if it is one. A URL
 * takes no spaces (`http://host/ extra words` would become `.../%20extra%20words`), and a host
 * without a scheme gets the hint to add one.
 */
export function seedProblem(text: string): string | undefined {
  if (/\s/.test(text)) {
    return '(one URL per line, without spaces: write a space in a URL as %20, and put notes after #)';
  }
  if (normalizeUrl(text) !== undefined) return undefined;
  // http://[bad, http://exa mple: the scheme is right and the rest does not parse.
  if (/^https?:\/\//i.test(text)) {
    return '(malformed URL: it does not parse; check the host name, its port and any [ ] of an IPv6 address)';
  }
  // `localhost:8080/x` has no scheme either, though it looks like one; `mailto:` has one.
  const hasScheme = text.includes('://') || /^(mailto|javascript|data|tel|file|ftp):/i.test(text);
  if (!hasScheme && normalizeUrl(`https://${text}`) !== undefined) {
    return `(no scheme: add https:// or http://, as in "https://${text}")`;
  }
  return '(only http:// and https:// URLs can be crawled)';
}
