/**
 * Config files for the command line: YAML or JSON objects whose keys are the long option names
 * in camelCase (`maxPages`, `minDelayMs`, ...). Unknown keys and wrong types are reported with
 * the file and the key, so a typo never silently does nothing.
 */
import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { ConfigError } from '../common/index.js';

/**
 * Type of a config value: `scalar` is a string or a number (e.g. `maxPages: 500` or
 * `maxPages: none`), left for the caller to check.
 */
export type OptionKind = 'string' | 'number' | 'boolean' | 'string[]' | 'scalar';

/**
 * Reads a YAML/JSON config file and checks its keys against `schema`.
 * @throws ConfigError naming the file (and key) when it is missing, unreadable, not an object,
 *   has an unknown key or a value of the wrong type.
 */
export function loadConfigFile(path: string, schema: Record<string, OptionKind>): Record<string, unknown> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new ConfigError(`cannot read config file ${path}: ${(error as Error).message}`, {
      cause: error,
      context: { file: path },
    });
  }
  let data: unknown;
  try {
    data = parseYaml(text);
  } catch (error) {
    // yaml's message runs over several lines (position, then the line with a caret under it):
    // one line instead, with the line and column.
    const pos = (error as { linePos?: { line: number; col: number }[] }).linePos?.[0];
    const first = ((error as Error).message.split('\n')[0] ?? '').replace(/ at line \d+, column \d+:?$/, '');
    const where = pos ? ` at line ${pos.line}, column ${pos.col}` : '';
    throw new ConfigError(`config file ${path} is not valid YAML or JSON${where}: ${first}`, {
      cause: error,
      context: { file: path, ...(pos ? { line: pos.line } : {}) },
    });
  }
  if (data === null || data === undefined) return {};
  if (typeof data !== 'object' || Array.isArray(data)) {
    throw new ConfigError(`config file ${path} must hold a mapping of option names to values`, {
      context: { file: path },
    });
  }
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(data)) {
    const kind = Object.hasOwn(schema, key) ? schema[key] : undefined;
    if (!kind) {
      const near = closestKey(key, Object.keys(schema));
      const hint = near === undefined ? '' : `did you mean "${near}"? `;
      throw new ConfigError(
        `config file ${path}: unknown option "${key}"; ${hint}known options: ${Object.keys(schema).join(', ')}`,
        {
          context: { file: path, field: key },
        },
      );
    }
    out[key] = checkKind(value, kind, path, key);
  }
  return out;
}

const KIND_TEXT: Record<OptionKind, string> = {
  string: 'a string',
  number: 'a number',
  boolean: 'true or false',
  'string[]': 'a string or a list of strings',
  scalar: 'a number or a string',
};

function checkKind(value: unknown, kind: OptionKind, file: string, key: string): unknown {
  const fail = (): never => {
    throw new ConfigError(
      `config file ${file}: option "${key}" must be ${KIND_TEXT[kind]}, got ${JSON.stringify(value)}`,
      {
        context: { file, field: key },
      },
    );
  };
  switch (kind) {
    case 'string':
      if (typeof value === 'number') return String(value);
      return typeof value === 'string' ? value : fail();
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) ? value : fail();
    case 'boolean':
      return typeof value === 'boolean' ? value : fail();
    case 'scalar':
      return typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value))
        ? value
        : fail();
    case 'string[]':
      if (typeof value === 'string') return [value];
      return Array.isArray(value) && value.every((v) => typeof v === 'string') ? value : fail();
  }
}

/** Edit distance (insertions, deletions, substitutions) between two strings. */
function editDistance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) {
      next[j] = Math.min(next[j - 1]! + 1, row[j]! + 1, row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    row = next;
  }
  return row[b.length]!;
}

/**
 * The known key a typo most likely meant, as commander suggests for flags: `max-pages` and
 * `max_pages` mean `maxPages`, and a key within a few edits of one (`maxPage`, `minDelay`) means
 * that one; undefined when none is close.
 */
export function closestKey(key: string, known: readonly string[]): string | undefined {
  const camel = key.replace(/[-_]([a-z])/g, (_, c: string) => c.toUpperCase());
  if (known.includes(camel)) return camel;
  const lower = camel.toLowerCase();
  let best: string | undefined;
  let bestDistance = Math.max(2, Math.floor(lower.length / 3)) + 1;
  for (const candidate of known) {
    const d = editDistance(lower, candidate.toLowerCase());
    if (d < bestDistance || (d === bestDistance && best !== undefined && candidate < best)) {
      if (d < bestDistance) bestDistance = d;
      best = candidate;
    }
  }
  return best;
}
