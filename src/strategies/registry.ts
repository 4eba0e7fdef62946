/**
 * Strategies by name, for the command line, the library and the benchmarks. Each strategy folder
 * exports its entry (name, description, settings schema, factory); adding a strategy is one line
 * in STRATEGIES. A spec is a name or a name with settings by field name
 * (`tres:gamma=0.5,isDoubleQ=false,warmupPolicy=random`): numbers, `true`/`false` and words.
 */
import { ConfigError } from '../common/index.js';
import {
  applyAliases,
  checkSettings,
  describeSettings,
  parseSettingValue,
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

/** Every strategy, in the order `--help` lists them. */
export const STRATEGIES: readonly StrategyEntry[] = [
  ...QUEUE_ENTRIES,
  ...TRES_ENTRIES,
  HAN_ASYNC_ENTRY,
  ACHE_ENTRY,
  COVERAGE_ENTRY,
  ...LIM_ENTRIES,
  APPRENTICE_ENTRY,
  ...RLWCS_ENTRIES,
];

/** The entry of `name`, or undefined. */
export function strategyEntry(name: string): StrategyEntry | undefined {
  return STRATEGIES.find((e) => e.name === name);
}

/**
 * True if the strategy of `spec` uses word vectors: the crawl loop should then load them
 * (`loadWordVectors()`) and pass them as `StrategyContext.wordVectors`. False for unknown names.
 */
export function strategyNeedsWordVectors(spec: string): boolean {
  return strategyEntry(parseStrategySpec(spec).name)?.needsWordVectors === true;
}

/** Names of the strategies that exist, with a one-line description and their setting names. */
export function strategyNames(): { name: string; describe: string; overrideKeys: readonly string[] }[] {
  return STRATEGIES.map((e) => ({
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
  for (const e of STRATEGIES) {
    lines.push(`  ${e.name}  ${e.description}`);
    const same = seen.get(e.settings);
    if (Object.keys(e.settings).length === 0) lines.push('    (no settings)');
    else if (same) lines.push(`    settings as ${same}`);
    else {
      seen.set(e.settings, e.name);
      lines.push(...describeSettings(e.settings, '    '));
      const aliases = Object.entries(e.aliases ?? {});
      if (aliases.length > 0)
        lines.push(`    old keys still taken: ${aliases.map(([k, a]) => `${k} (${a.to})`).join(', ')}`);
    }
  }
  return lines.join('\n');
}

/**
 * Parses a strategy spec `NAME` or `NAME:key=value,...` (values: numbers, true/false, words).
 * Which keys a strategy takes is checked by {@link createStrategy}.
 * @throws ConfigError naming the bad part.
 */
export function parseStrategySpec(spec: string): { name: string; overrides: Record<string, SettingValue> } {
  const colon = spec.indexOf(':');
  const name = (colon < 0 ? spec : spec.slice(0, colon)).trim();
  const overrides: Record<string, SettingValue> = {};
  if (colon >= 0) {
    for (const part of spec.slice(colon + 1).split(',')) {
      const [key, value, extra] = part.split('=').map((t) => t.trim());
      if (!key || value === undefined || value === '' || extra !== undefined) {
        throw new ConfigError(`strategy "${spec}": "${part}" is not KEY=VALUE`, {
          context: { field: 'strategy' },
        });
      }
      overrides[key] = parseSettingValue(value);
    }
  }
  return { name, overrides };
}

/**
 * Makes a strategy from a spec: a name (`tres`) or a name with settings (`tres:gamma=0.5`). The
 * strategy keeps the spec as its name, so reports tell variants apart.
 * @throws ConfigError naming the unknown strategy and listing the known ones, a key the strategy
 *   does not take (listing those it takes), or a value out of range.
 */
export function createStrategy(spec: string, ctx: StrategyContext): Strategy {
  const { name, overrides } = parseStrategySpec(spec);
  const entry = strategyEntry(name);
  if (!entry) {
    throw new ConfigError(
      `unknown strategy "${name}"; choose one of: ${STRATEGIES.map((e) => e.name).join(', ')}`,
      { context: { field: 'strategy' } },
    );
  }
  if (Object.keys(overrides).length === 0) return entry.create(ctx, {});
  const where = `strategy "${spec}"`;
  const settings = applyAliases(overrides, entry.aliases ?? {}, where);
  const keys = Object.keys(entry.settings);
  for (const key of Object.keys(settings)) {
    if (!keys.includes(key)) {
      const known = keys.length > 0 ? `it takes ${keys.join(', ')}` : 'it has no settings';
      throw new ConfigError(`${where}: "${name}" has no setting "${key}"; ${known}`, {
        context: { field: 'strategy' },
      });
    }
  }
  checkSettings(entry.settings, settings, where);
  return entry.create({ ...ctx, name: spec }, settings);
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
