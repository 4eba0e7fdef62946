/**
 * One way to declare and check settings: a schema says each field's type, range, default and
 * doc; {@link checkSettings} fills in the defaults and throws a ConfigError naming the field.
 * Strategies declare their spec settings with it (`tres:gamma=0.5,isDoubleQ=false`), and options
 * objects are checked with it, so the rules are written once. Values are numbers, `true`/`false`
 * and words; a feature is turned off with `false`, never a magic 0 or -1.
 */
import { ConfigError } from '../common/index.js';

/** A value a setting may hold. */
export type SettingValue = number | boolean | string;

/** Range of a number setting. */
export interface NumberRange {
  /** Smallest value allowed (inclusive unless `isMinOpen`). */
  min?: number;
  /** Largest value allowed (inclusive unless `isMaxOpen`). */
  max?: number;
  isMinOpen?: boolean;
  isMaxOpen?: boolean;
  isInteger?: boolean;
}

interface SettingBase<T> {
  /** One line: what it is, its unit and where it comes from. */
  doc: string;
  default: T;
}

/** A number in a range; with `canBeOff`, also `false` (the feature off). */
export interface NumberSetting<T extends number | false = number | false>
  extends SettingBase<T>,
    NumberRange {
  kind: 'number';
  canBeOff: boolean;
}
export interface BooleanSetting extends SettingBase<boolean> {
  kind: 'boolean';
}
export interface WordSetting<W extends string = string> extends SettingBase<W> {
  kind: 'word';
  words: readonly W[];
}
export type Setting = NumberSetting | BooleanSetting | WordSetting;

/** Field name -> setting. */
export type SettingsSchema = Readonly<Record<string, Setting>>;

/** The typed values of a schema. */
export type SettingsOf<S extends SettingsSchema> = { -readonly [K in keyof S]: S[K]['default'] };

/**
 * An old spec key that still works: `learn=0` sets `isLearning` to false. `values` maps each
 * accepted written value of the old key to the new field's value.
 */
export interface SettingAlias {
  to: string;
  values: Readonly<Record<string, SettingValue>>;
}

/** A number setting. */
export function numberSetting(value: number, doc: string, range: NumberRange = {}): NumberSetting<number> {
  return { kind: 'number', default: value, doc, canBeOff: false, ...range };
}

/** A number setting that `false` turns off. */
export function numberOrOffSetting(
  value: number | false,
  doc: string,
  range: NumberRange = {},
): NumberSetting<number | false> {
  return { kind: 'number', default: value, doc, canBeOff: true, ...range };
}

export function booleanSetting(value: boolean, doc: string): BooleanSetting {
  return { kind: 'boolean', default: value, doc };
}

export function wordSetting<const W extends string>(
  words: readonly W[],
  value: W,
  doc: string,
): WordSetting<W> {
  return { kind: 'word', default: value, doc, words };
}

/** What a setting accepts, in words: `an integer >= 1 or false`, `true or false`, `random or prior`. */
export function settingRule(s: Setting): string {
  if (s.kind === 'boolean') return 'true or false';
  if (s.kind === 'word') return s.words.join(' or ');
  const what = s.isInteger ? 'an integer' : 'a number';
  let range = '';
  if (s.min !== undefined && s.max !== undefined)
    range = ` in ${s.isMinOpen ? '(' : '['}${s.min}, ${s.max}${s.isMaxOpen ? ')' : ']'}`;
  else if (s.min !== undefined) range = ` ${s.isMinOpen ? '>' : '>='} ${s.min}`;
  else if (s.max !== undefined) range = ` ${s.isMaxOpen ? '<' : '<='} ${s.max}`;
  return `${what}${range}${s.canBeOff ? ' or false' : ''}`;
}

function isValid(s: Setting, v: unknown): boolean {
  if (s.kind === 'boolean') return typeof v === 'boolean';
  if (s.kind === 'word') return typeof v === 'string' && (s.words as readonly string[]).includes(v);
  if (v === false) return s.canBeOff;
  if (typeof v !== 'number' || !Number.isFinite(v)) return false;
  if (s.isInteger && !Number.isInteger(v)) return false;
  if (s.min !== undefined && (s.isMinOpen ? v <= s.min : v < s.min)) return false;
  if (s.max !== undefined && (s.isMaxOpen ? v >= s.max : v > s.max)) return false;
  return true;
}

/** A spec value as written (`0.5`, `true`, `prior`) as a number, boolean or word. */
export function parseSettingValue(text: string): SettingValue {
  const t = text.trim();
  if (t === 'true') return true;
  if (t === 'false') return false;
  const n = Number(t);
  return t !== '' && Number.isFinite(n) ? n : t;
}

/**
 * The defaults of `schema` overlaid with `values`, each checked against its setting.
 * `where` starts each message (`strategy "ache"`, `ddqn config`).
 * @throws ConfigError naming the field (`context.field`), the rule and the value; for a key the
 *   schema does not have, the keys it has.
 */
export function checkSettings<S extends SettingsSchema>(
  schema: S,
  values: Readonly<Record<string, unknown>>,
  where: string,
): SettingsOf<S> {
  const out: Record<string, unknown> = {};
  for (const [field, setting] of Object.entries(schema)) out[field] = setting.default;
  for (const [field, value] of Object.entries(values)) {
    if (value === undefined) continue;
    const setting = schema[field];
    if (!setting) {
      const known = Object.keys(schema);
      throw new ConfigError(
        `${where} has no setting "${field}"; ${known.length > 0 ? `it takes ${known.join(', ')}` : 'it has no settings'}`,
        { context: { field } },
      );
    }
    if (!isValid(setting, value)) {
      throw new ConfigError(`${where}: ${field} must be ${settingRule(setting)}, got ${String(value)}`, {
        context: { field },
      });
    }
    out[field] = value;
  }
  return out as SettingsOf<S>;
}

/**
 * Rewrites old keys (`learn=0`) into the fields they stand for (`isLearning: false`).
 * @throws ConfigError naming the old key when its value is not one it took.
 */
export function applyAliases(
  values: Readonly<Record<string, SettingValue>>,
  aliases: Readonly<Record<string, SettingAlias>>,
  where: string,
): Record<string, SettingValue> {
  const out: Record<string, SettingValue> = {};
  for (const [key, value] of Object.entries(values)) {
    const alias = aliases[key];
    if (!alias) {
      out[key] = value;
      continue;
    }
    const mapped = alias.values[String(value)];
    if (mapped === undefined) {
      throw new ConfigError(
        `${where}: ${key} (old name of ${alias.to}) must be ${Object.keys(alias.values).join(' or ')}, got ${String(value)}`,
        { context: { field: key } },
      );
    }
    if (out[alias.to] === undefined) out[alias.to] = mapped;
  }
  return out;
}

/** One line per setting, for help texts and docs: `gamma=0.99  a number in [0, 1)  discount`. */
export function describeSettings(schema: SettingsSchema, indent = '  '): string[] {
  return Object.entries(schema).map(
    ([field, s]) => `${indent}${field}=${String(s.default)}  (${settingRule(s)})  ${s.doc}`,
  );
}
