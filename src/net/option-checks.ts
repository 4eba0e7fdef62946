/**
 * Range checks for options, run once at construction. Each throws a ConfigError that names the
 * field, the value and what is expected.
 */
import { ConfigError } from '../common/index.js';

function fail(component: string, field: string, value: unknown, expected: string): never {
  throw new ConfigError(`${component} option ${field} is ${JSON.stringify(value)}; expected ${expected}`, {
    context: { field },
  });
}

/**
 * Checks that `value` is a finite number >= `min` (and an integer when `isInteger`).
 * @throws ConfigError naming `component.field`.
 */
export function checkNumber(
  component: string,
  field: string,
  value: unknown,
  min: number,
  isInteger = false,
): void {
  const ok = typeof value === 'number' && Number.isFinite(value) && value >= min;
  if (!ok || (isInteger && !Number.isInteger(value))) {
    fail(component, field, value, `${isInteger ? 'an integer' : 'a number'} >= ${min}`);
  }
}

/**
 * Checks a duration that may be turned off with `false`: a number of ms > 0, or false.
 * @throws ConfigError naming `component.field`.
 */
export function checkTimeout(component: string, field: string, value: unknown): void {
  if (value === false) return;
  if (!(typeof value === 'number' && Number.isFinite(value) && value > 0)) {
    fail(component, field, value, 'a number of milliseconds > 0, or false to turn it off');
  }
}

/**
 * Checks a boolean option.
 * @throws ConfigError naming `component.field`.
 */
export function checkBoolean(component: string, field: string, value: unknown): void {
  if (typeof value !== 'boolean') fail(component, field, value, 'true or false');
}

/**
 * Fills in defaults: each key of `defaults` takes the value from `options` unless that is
 * undefined. Keys not in `defaults` are dropped, so one flat options object can feed several
 * components.
 */
export function withDefaults<T extends object>(defaults: Readonly<T>, options: Partial<T>): T {
  const merged = { ...defaults } as T;
  for (const key of Object.keys(defaults) as (keyof T)[]) {
    const value = options[key];
    if (value !== undefined) merged[key] = value as T[keyof T];
  }
  return merged;
}
