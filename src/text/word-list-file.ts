/**
 * Keyword and keyphrase files: one entry per line, blank lines and lines starting with `#`
 * ignored. The same format is written by `tres keywords --out`.
 */
import { readFileSync } from 'node:fs';
import { ConfigError } from '../common/index.js';

/**
 * Reads a word-list file.
 * @param what what the file holds, for messages ("keywords")
 * @throws ConfigError naming the file if it cannot be read or holds no entry
 */
export function readWordList(path: string, what: string): string[] {
  let content: string;
  try {
    content = readFileSync(path, 'utf8');
  } catch (cause) {
    throw new ConfigError(`${what} file ${path} cannot be read`, { cause, context: { file: path } });
  }
  const entries = content
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l.length > 0 && !l.startsWith('#'));
  if (entries.length === 0)
    throw new ConfigError(`${what} file ${path} holds no entries (one per line)`, {
      context: { file: path },
    });
  return entries;
}
