/**
 * Checks of `tres crawl` option values. Each takes the value as given (a string from the command
 * line, a typed value from a config file) and `where`, the option as the user wrote it
 * (`--max-pages`, `maxPages in crawl.yaml`), and returns the checked value.
 * @throws ConfigError whose message starts with `where`.
 */
import { resolve } from 'node:path';
import { domainToASCII } from 'node:url';
import { ConfigError } from '../common/index.js';
import { parseDomainLimit } from '../crawl/index.js';
import { parseResolveRules } from '../net/index.js';
import { parseStrategySpec, type StrategySpec } from '../strategies/index.js';
import { readListFile } from './list-file.js';

/** `--ui-port` and the like: a TCP port, 0 (any free port) to 65535. */
export function portNumber(raw: unknown, where: string): number {
  const text = String(raw).trim();
  const n = typeof raw === 'number' ? raw : /^\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isInteger(n) || n < 0 || n > 65535) {
    throw new ConfigError(
      `${where} must be a TCP port from 0 to 65535 (0: any free port), got ${JSON.stringify(raw)}`,
      { context: { field: where } },
    );
  }
  return n;
}

/** `--max-pages` etc.: whole numbers >= min, or `none` (false) when `allowNone`. */
export function wholeNumber(min: number, allowNone = false) {
  return (raw: unknown, where: string): number | false => {
    if (allowNone && (raw === 'none' || raw === false)) return false;
    const text = String(raw).trim();
    const n = typeof raw === 'number' ? raw : /^[+-]?\d+$/.test(text) ? Number(text) : Number.NaN;
    if (!Number.isSafeInteger(n) || n < min) {
      throw new ConfigError(
        `${where} must be a whole number >= ${min}${allowNone ? ' or none' : ''}, got ${JSON.stringify(raw)}`,
        { context: { field: where } },
      );
    }
    return n;
  };
}

export function probability(raw: unknown, where: string): number {
  const text = String(raw).trim();
  const p = typeof raw === 'number' ? raw : text === '' ? Number.NaN : Number(text);
  if (!(p > 0 && p <= 1)) {
    throw new ConfigError(
      `${where} must be a probability above 0 and at most 1 (e.g. 0.5), got ${JSON.stringify(raw)}`,
      {
        context: { field: where },
      },
    );
  }
  return p;
}

export function text(raw: unknown, where: string): string {
  const value = String(raw).trim();
  if (value === '') throw new ConfigError(`${where} must not be empty`, { context: { field: where } });
  return value;
}

export function list(raw: unknown, where: string): string[] {
  const values = (Array.isArray(raw) ? raw : [raw]).map((v) => String(v).trim()).filter(Boolean);
  if (values.length === 0) throw new ConfigError(`${where} must not be empty`, { context: { field: where } });
  return values;
}

/** Prefixes a library ConfigError's message with the option as typed. */
function rethrowAs<T>(where: string, fn: () => T): T {
  try {
    return fn();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    throw new ConfigError(`${where}: ${error.message}`, { cause: error, context: { field: where } });
  }
}

/** A strategy spec, parsed and checked once; the crawl makes its strategy from the parsed spec. */
export function strategy(raw: unknown, where: string): StrategySpec {
  const spec = text(raw, where);
  return rethrowAs(where, () => parseStrategySpec(spec));
}

export function domainLimit(raw: unknown, where: string): string {
  const value = text(raw, where);
  parseDomainLimit(value, where);
  return value;
}

export function patterns(raw: unknown, where: string): string[] {
  return list(raw, where).map((pattern) => {
    try {
      new RegExp(pattern);
    } catch (error) {
      throw new ConfigError(
        `${where}: ${JSON.stringify(pattern)} is not a regular expression (${(error as Error).message})`,
        {
          context: { field: where },
        },
      );
    }
    return pattern;
  });
}

export function domains(raw: unknown, where: string): string[] {
  return list(raw, where).map((domain) => {
    const bare = domain.replace(/^\*?\./, '');
    if (bare === '' || domainToASCII(bare) === '') {
      throw new ConfigError(`${where}: ${JSON.stringify(domain)} is not a domain or host name`, {
        context: { field: where },
      });
    }
    return domain;
  });
}

export function resolveRules(raw: unknown, where: string): string[] {
  const rules = list(raw, where);
  rethrowAs(where, () => parseResolveRules(rules));
  return rules;
}

// Same test as the fetcher's (net/fetcher-options.ts), so the message can name the flag.
const CONTACT = /https?:\/\/[^\s)]+|[\w.+-]+@[\w-]+(\.[\w-]+)+/;
export function userAgent(raw: unknown, where: string): string {
  const ua = text(raw, where);
  if (!CONTACT.test(ua)) {
    throw new ConfigError(
      `${where} "${ua}" has no contact URL or e-mail address; add one so site owners can reach you, e.g. "mybot/1.0 (+https://example.org/bot)"`,
      { context: { field: where } },
    );
  }
  return ua;
}

/** A list file of words (`--keywords-file`): its items. */
export function wordsFile(raw: unknown, where: string): string[] {
  return readListFile(text(raw, where), `${where} file`);
}

/** A folder given by path (`--model`), made absolute so a resume from elsewhere finds it. */
export function folder(raw: unknown, where: string): string {
  return resolve(text(raw, where));
}
