/**
 * Strategies by name, for the command line, the library and the benchmarks: the built-in ones
 * (each folder exports its entry: name, description, settings schema, factory) and any a library
 * user registers with {@link registerStrategy}. A spec is a name or a name with settings by
 * field name (`tres:gamma=0.5,isDoubleQ=false,warmupPolicy=random`): numbers, `true`/`false` and
 * words.
 */
import { ConfigError } from '../common/index.js';
import {
  applyAliases,
  checkSettings,
  describeSettings,
  parseSettingValue,
  type SettingAlias,
  type SettingValue,
} from '../config/index.js';
import { ACHE_ENTRY } from './ache/index.js';
import { APPRENTICE_ENTRY } from './apprentice/index.js';
import { HAN_ASYNC_ENTRY } from './han-async/index.js';
import { LIM_ENTRIES } from './lim/index.js';
import { QUEUE_ENTRIES } from './queue-entries.js';
import { RLWCS_ENTRIES } from './rlwcs/index.js';
import { COVERAGE_ENTRY } from './site-coverage/index.js';
import type { Strategy } from './strategy.js';
import type { StrategyContext, StrategyEntry } from './strategy-entry.js';
import { TRES_ENTRIES } from './tres/index.js';

export type { StrategyContext, StrategyEntry } from './strategy-entry.js';

/**
 * The strategy of a crawl that names none: relevant pages from many relevant sites (against
 * best-first, at least its mean harvest rate and relevant sites on the DocWeb topics, but for
 * one tie: results/coverage-strategy/default.md).
 */
export const DEFAULT_STRATEGY = 'coverage';

/** The built-in strategies, in the order `--help` lists them. */
const BUILT_IN: readonly StrategyEntry[] = [
  ...QUEUE_ENTRIES,
  ...TRES_ENTRIES,
  HAN_ASYNC_ENTRY,
  ACHE_ENTRY,
  COVERAGE_ENTRY,
  ...LIM_ENTRIES,
  APPRENTICE_ENTRY,
  ...RLWCS_ENTRIES,
];

/** Every registered strategy by name, in registration order (the built-in ones first). */
const REGISTERED = new Map<string, StrategyEntry>(BUILT_IN.map((e) => [e.name, e]));

/** A strategy name: no `:`, `,`, `=` or space, which a spec uses to separate its parts. */
const STRATEGY_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/**
 * Adds a strategy to the registry, so that a spec names it (`new Crawler({ strategy:
 * 'my-strategy:depth=2' })`, `createStrategy`, `strategyNames`) like a built-in one. Write the
 * entry with {@link defineStrategy}.
 * @throws ConfigError if the name is not a valid strategy name or is taken.
 */
export function registerStrategy(entry: StrategyEntry): void {
  const fail = (why: string): never => {
    throw new ConfigError(`registerStrategy: ${why}`, { context: { field: 'name' } });
  };
  if (!STRATEGY_NAME.test(entry.name))
    fail(
      `"${entry.name}" is not a strategy name (letters, digits, "-", "_" and "."; it starts with a letter or digit)`,
    );
  if (REGISTERED.has(entry.name))
    fail(`a strategy named "${entry.name}" is registered already; choose another name`);
  REGISTERED.set(entry.name, entry);
}

/**
 * Removes a strategy that {@link registerStrategy} added (a test's, say); the built-in ones stay.
 * @returns true if it was registered.
 * @throws ConfigError for the name of a built-in strategy.
 */
export function unregisterStrategy(name: string): boolean {
  if (BUILT_IN.some((e) => e.name === name)) {
    throw new ConfigError(`unregisterStrategy: "${name}" is a built-in strategy`, {
      context: { field: 'name' },
    });
  }
  return REGISTERED.delete(name);
}

/** Every registered strategy: the built-in ones in the order `--help` lists them, then the others. */
export function strategyEntries(): readonly StrategyEntry[] {
  return [...REGISTERED.values()];
}

/** The entry of `name`, or undefined. */
export function strategyEntry(name: string): StrategyEntry | undefined {
  return REGISTERED.get(name);
}

/**
 * True if the strategy of `spec` uses word vectors: the crawl loop should then load them
 * (`loadWordVectors()`) and pass them as `StrategyContext.wordVectors`. False for unknown names.
 */
export function strategyNeedsWordVectors(spec: string | StrategySpec): boolean {
  const name = typeof spec === 'string' ? spec.split(':')[0]?.trim() : spec.name;
  return strategyEntry(name ?? '')?.needsWordVectors === true;
}

/** Names of the strategies that exist, with a one-line description and their setting names. */
export function strategyNames(): { name: string; describe: string; overrideKeys: readonly string[] }[] {
  return strategyEntries().map((e) => ({
    name: e.name,
    describe: e.description,
    overrideKeys: Object.keys(e.settings),
  }));
}

/**
 * The strategies and their settings, for `tres crawl --help` and docs/strategies.md: one block
 * per strategy (`name  description`, then `key=default  (rule)  doc` lines, then its old keys).
 * A strategy with the same settings as one before it refers to it.
 */
export function strategySettingsHelp(): string {
  const lines = ['Strategies (--strategy NAME or NAME:key=value,...; values: numbers, true/false, words):'];
  const seen = new Map<object, string>();
  for (const e of strategyEntries()) {
    lines.push(`  ${e.name}  ${e.description}`);
    const same = seen.get(e.settings);
    if (Object.keys(e.settings).length === 0) lines.push('    (no settings)');
    else if (same) lines.push(`    settings as ${same}`);
    else {
      seen.set(e.settings, e.name);
      lines.push(...describeSettings(e.settings, '    '));
      const aliases = Object.entries(e.aliases ?? {});
      if (aliases.length > 0)
        lines.push(
          `    old keys, deprecated but still taken: ${aliases.map(([k, a]) => `${k} (${a.to})`).join(', ')}`,
        );
    }
  }
  return lines.join('\n');
}

/**
 * A strategy spec read once: the text as the user wrote it, the registry entry it names and the
 * settings it sets, old keys rewritten and every value checked. It reads back as its text
 * (`String(spec)`, JSON), so it can stand where a spec's text is stored or compared.
 */
export class StrategySpec {
  private constructor(
    /** The spec as written: `tres:gamma=0.5`. */
    readonly text: string,
    /** The strategy's name: `tres`. */
    readonly name: string,
    readonly entry: StrategyEntry,
    /** The settings the spec sets, by field name, checked against the entry's schema. */
    readonly settings: Readonly<Record<string, SettingValue>>,
    /**
     * One line per old key the spec uses (`learn=0`), saying what to write instead; the key
     * still works. The command line prints them as warnings.
     */
    readonly deprecations: readonly string[],
  ) {}

  /**
   * Parses and checks a spec `NAME` or `NAME:key=value,...` (values: numbers, true/false, words).
   * @throws ConfigError naming the spec as written: a part that is not KEY=VALUE, an unknown
   *   strategy (listing the known ones), a key the strategy does not take (listing those it
   *   takes), or a value out of range.
   */
  static parse(text: string): StrategySpec {
    const colon = text.indexOf(':');
    const name = (colon < 0 ? text : text.slice(0, colon)).trim();
    const where = `strategy "${text}"`;
    const fail = (message: string): never => {
      throw new ConfigError(message, { context: { field: 'strategy' } });
    };
    const overrides: Record<string, SettingValue> = {};
    if (colon >= 0) {
      for (const part of text.slice(colon + 1).split(',')) {
        const [key, value, extra] = part.split('=').map((t) => t.trim());
        if (!key || value === undefined || value === '' || extra !== undefined)
          fail(`${where}: "${part}" is not KEY=VALUE`);
        overrides[key as string] = parseSettingValue(value as string);
      }
    }
    const entry = strategyEntry(name);
    if (!entry)
      return fail(
        `unknown strategy "${name}"; choose one of: ${strategyEntries()
          .map((e) => e.name)
          .join(', ')}`,
      );
    const settings = applyAliases(overrides, entry.aliases ?? {}, where);
    const deprecations = Object.keys(overrides)
      .filter((key) => entry.aliases?.[key] !== undefined)
      .map((key) => {
        const alias = entry.aliases?.[key] as SettingAlias;
        const now = `${alias.to}=${String(alias.values[String(overrides[key])])}`;
        return `${where}: ${key}=${String(overrides[key])} is an old key, still taken for now; write ${now}`;
      });
    const keys = Object.keys(entry.settings);
    for (const key of Object.keys(settings)) {
      if (!keys.includes(key)) {
        const known = keys.length > 0 ? `it takes ${keys.join(', ')}` : 'it has no settings';
        fail(`${where}: "${name}" has no setting "${key}"; ${known}`);
      }
    }
    if (Object.keys(settings).length > 0) {
      checkSettings(entry.settings, settings, where);
      try {
        entry.check?.(settings);
      } catch (error) {
        if (!(error instanceof ConfigError)) throw error;
        fail(`${where}: ${error.message}`);
      }
    }
    return new StrategySpec(text, name, entry, settings, deprecations);
  }

  toString(): string {
    return this.text;
  }

  toJSON(): string {
    return this.text;
  }
}

/**
 * Parses and checks a strategy spec: {@link StrategySpec.parse}.
 * @throws ConfigError naming the spec as written.
 */
export function parseStrategySpec(text: string): StrategySpec {
  return StrategySpec.parse(text);
}

/**
 * Makes a strategy from a spec: a name (`tres`) or a name with settings (`tres:gamma=0.5`),
 * parsed here when given as text. A spec with settings keeps its text as the strategy's name,
 * so reports tell variants apart.
 * @throws ConfigError naming the spec as written (see {@link StrategySpec.parse}).
 */
export function createStrategy(spec: string | StrategySpec, ctx: StrategyContext): Strategy {
  const parsed = typeof spec === 'string' ? StrategySpec.parse(spec) : spec;
  if (Object.keys(parsed.settings).length === 0) return parsed.entry.create(ctx, {});
  return parsed.entry.create({ ...ctx, name: parsed.text }, parsed.settings);
}

/**
 * Splits a comma-separated list of strategy specs, keeping the settings of a spec together:
 * `bfs,tres:gamma=0.5,lr=0.001` is `bfs` and `tres:gamma=0.5,lr=0.001` (a part with `=` and no
 * `:` continues the spec before it).
 */
export function splitStrategySpecs(value: string): string[] {
  const specs: string[] = [];
  for (const part of value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    if (part.includes('=') && !part.includes(':') && specs.length > 0) specs[specs.length - 1] += `,${part}`;
    else specs.push(part);
  }
  return specs;
}
