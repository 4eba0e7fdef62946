/**
 * Config files for the command line: YAML or JSON objects whose keys are the long option names
 * in camelCase (`maxPages`, `minDelayMs`, ...). Unknown keys and wrong types are reported with
 * the file and the key, so a typo never silently does nothing.
 */
import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { ConfigError } from '../common/errors.js';

export type OptionKind = 'string' | 'number' | 'boolean' | 'string[]';

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
    throw new ConfigError(`config file ${path} is not valid YAML or JSON: ${(error as Error).message}`, {
      cause: error,
      context: { file: path },
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
    const kind = schema[key];
    if (!kind) {
      throw new ConfigError(
        `config file ${path}: unknown option "${key}"; known options: ${Object.keys(schema).join(', ')}`,
        {
          context: { file: path, field: key },
        },
      );
    }
    out[key] = checkKind(value, kind, path, key);
  }
  return out;
}

function checkKind(value: unknown, kind: OptionKind, file: string, key: string): unknown {
  const fail = (): never => {
    throw new ConfigError(
      `config file ${file}: option "${key}" must be a ${kind}, got ${JSON.stringify(value)}`,
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
    case 'string[]':
      if (typeof value === 'string') return [value];
      return Array.isArray(value) && value.every((v) => typeof v === 'string') ? value : fail();
  }
}
