/**
 * The contract between the registry and a strategy: one entry per strategy, with its name, a
 * one-line description, its settings schema (the spec keys `name:key=value` are the field names,
 * the defaults and docs come from the same place as `tres crawl --help`), and a factory. It knows
 * no particular strategy: a built-in folder and a library user's code write entries the same way
 * (`defineStrategy`, then `registerStrategy`).
 */
import type { Rng } from '../common/index.js';
import type { SettingAlias, SettingsOf, SettingsSchema } from '../config/index.js';
import type { KeywordSet, WordVectorLookup } from '../text/index.js';
import type { Strategy } from './strategy.js';

/** What every strategy factory receives. */
export interface StrategyContext {
  /** The run's random stream, already forked for the strategy. */
  rng: Rng;
  /** The topic's (expanded) keywords and keyphrases, for strategies with keyword features. */
  keywords?: KeywordSet;
  /** Name to report (the full spec, e.g. `tres:gamma=0.5`); defaults to the strategy's own. */
  name?: string;
  /**
   * Word vectors (the `loadWordVectors()` table) for strategies whose entry says
   * `needsWordVectors`; without them such a strategy falls back to keyword matching.
   */
  wordVectors?: WordVectorLookup;
  /**
   * The crawl's pages are judged by keyword counts alone (the crawler's stand-in keyword judge,
   * no trained model), for strategies that learn differently from such a judge's verdicts
   * (`coverage`'s `gain=auto`). @default false
   */
  isKeywordJudged?: boolean;
}

/** One strategy of the registry. */
export interface StrategyEntry<S extends SettingsSchema = SettingsSchema> {
  /**
   * Name on the command line and in reports (`tres`, `ache`): letters, digits, `-`, `_` and `.`,
   * unique among the registered strategies.
   */
  name: string;
  /** One line for `--help` and the docs. */
  description: string;
  /** The settings a spec may set, by field name, with defaults, ranges and docs. */
  settings: S;
  /** Old spec keys kept working (`learn=0` for `isLearning=false`), for the commands in results/. */
  aliases?: Readonly<Record<string, SettingAlias>>;
  /** True if the strategy uses `StrategyContext.wordVectors` (the loop loads them only then). */
  needsWordVectors?: boolean;
  /**
   * Rules between settings that the schema cannot say (`maxTrainingPages >= trainAfterPages`),
   * checked when a spec is parsed, so a bad spec is refused before anything is made.
   * @throws ConfigError naming the setting.
   */
  check?(settings: Partial<SettingsOf<S>>): void;
  /** Makes the strategy; `settings` holds only what the spec set, already checked. */
  create(ctx: StrategyContext, settings: Partial<SettingsOf<S>>): Strategy;
}

/** Declares an entry with its settings' types inferred (the registry holds them as `StrategyEntry`). */
export function defineStrategy<S extends SettingsSchema>(entry: StrategyEntry<S>): StrategyEntry {
  return entry as unknown as StrategyEntry;
}
