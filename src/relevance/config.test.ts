import { describe, expect, it } from 'vitest';
import { ConfigError } from '../common/index.js';
import { DEFAULT_RELEVANCE_CONFIG, resolveRelevanceConfig } from './config.js';

describe('resolveRelevanceConfig', () => {
  it('fills in defaults and keeps overrides of nested fields', () => {
    const c = resolveRelevanceConfig({ seed: 'x', bilstm: { units: 4 } });
    expect(c.seed).toBe('x');
    expect(c.bilstm.units).toBe(4);
    expect(c.bilstm.maxLen).toBe(DEFAULT_RELEVANCE_CONFIG.bilstm.maxLen);
    expect(c.svm).toEqual(DEFAULT_RELEVANCE_CONFIG.svm);
  });
  it('names the field that is out of range', () => {
    expect(() => resolveRelevanceConfig({ bilstm: { maxLen: 0 } })).toThrow(ConfigError);
    expect(() => resolveRelevanceConfig({ bilstm: { maxLen: 0 } })).toThrow(/bilstm\.maxLen/);
    expect(() => resolveRelevanceConfig({ threshold: 1.5 })).toThrow(/threshold/);
    expect(() => resolveRelevanceConfig({ bilstm: { dropout: 1 } })).toThrow(/bilstm\.dropout/);
  });
});
