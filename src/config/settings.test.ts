import { describe, expect, it } from 'vitest';
import { ConfigError } from '../common/index.js';
import {
  applyAliases,
  booleanSetting,
  checkSettings,
  numberOrOffSetting,
  numberSetting,
  parseSettingValue,
  settingRule,
  wordSetting,
} from './settings.js';

const SCHEMA = {
  gamma: numberSetting(0.9, 'discount', { min: 0, max: 1, isMaxOpen: true }),
  batchSize: numberSetting(60, 'batch', { min: 1, isInteger: true }),
  cap: numberOrOffSetting(false, 'cap', { min: 1, isInteger: true }),
  isLearning: booleanSetting(true, 'learn'),
  policy: wordSetting(['prior', 'random'], 'prior', 'policy'),
};

describe('checkSettings', () => {
  it('fills in the defaults and keeps the values given', () => {
    expect(checkSettings(SCHEMA, { gamma: 0.5, cap: 3 }, 'x')).toEqual({
      gamma: 0.5,
      batchSize: 60,
      cap: 3,
      isLearning: true,
      policy: 'prior',
    });
  });

  it('throws a ConfigError naming the field, the rule and the value', () => {
    const bad: [Record<string, unknown>, RegExp][] = [
      [{ gamma: 1 }, /^x: gamma must be a number in \[0, 1\), got 1$/],
      [{ batchSize: 1.5 }, /batchSize must be an integer >= 1, got 1.5/],
      [{ cap: 0 }, /cap must be an integer >= 1 or false, got 0/],
      [{ batchSize: false }, /batchSize must be an integer >= 1, got false/],
      [{ isLearning: 0 }, /isLearning must be true or false, got 0/],
      [{ policy: 'best' }, /policy must be prior or random, got best/],
      [{ gama: 0.5 }, /x has no setting "gama"; it takes gamma, batchSize, cap, isLearning, policy/],
    ];
    for (const [values, message] of bad) {
      expect(() => checkSettings(SCHEMA, values, 'x')).toThrow(ConfigError);
      expect(() => checkSettings(SCHEMA, values, 'x')).toThrow(message);
    }
    try {
      checkSettings(SCHEMA, { gamma: 2 }, 'x');
    } catch (error) {
      expect((error as ConfigError).context.field).toBe('gamma');
    }
  });
});

describe('spec values and old keys', () => {
  it('reads numbers, true/false and words', () => {
    expect([parseSettingValue('0.5'), parseSettingValue('true'), parseSettingValue('false')]).toEqual([
      0.5,
      true,
      false,
    ]);
    expect(parseSettingValue(' random ')).toBe('random');
  });

  it('maps an old key onto its field and refuses values the old key did not take', () => {
    const aliases = { learn: { to: 'isLearning', values: { 0: false, 1: true } } };
    expect(applyAliases({ learn: 0, gamma: 0.5 }, aliases, 'x')).toEqual({ isLearning: false, gamma: 0.5 });
    expect(() => applyAliases({ learn: 2 }, aliases, 'x')).toThrow(
      /learn \(old name of isLearning\) must be 0 or 1/,
    );
  });

  it('describes each rule in words', () => {
    expect(settingRule(SCHEMA.cap)).toBe('an integer >= 1 or false');
    expect(settingRule(SCHEMA.policy)).toBe('prior or random');
  });
});
