import { describe, expect, it } from 'vitest';
import { describeState, HostStates, stateIndex, trueFeatureCount } from './host-states.js';

const states = () => new HostStates({ parseSkipRatio: 1, relevanceThreshold: 2 / 3 });

describe('HostStates', () => {
  it('reads a first page of a new host as "parse-skip ratio" and "host relevant" true', () => {
    const h = states();
    h.recordPage('a', 0);
    expect(describeState(h.state('a', 0))).toBe('(T,F,T,F)');
    expect(describeState(h.state('a', 0.7))).toBe('(T,F,T,T)');
  });
  it('turns feature 1 false once parsed pages are not fewer than skipped ones', () => {
    const h = states();
    h.recordPage('a', 0.9);
    h.recordDecision('a', true);
    expect(describeState(h.state('a', 0))).toBe('(F,F,T,F)');
    h.recordDecision('a', false);
    h.recordDecision('a', false);
    expect(describeState(h.state('a', 0))).toBe('(T,F,T,F)');
  });
  it('follows the text for feature 3: a host with parsed pages of low mean relevance is false', () => {
    const h = states();
    h.recordPage('a', 0.2);
    expect(describeState(h.state('a', 0))).toBe('(T,F,T,F)');
    h.recordDecision('a', true);
    h.recordPage('a', 0.3);
    expect(describeState(h.state('a', 0))).toBe('(F,F,F,F)');
  });
  it('reads feature 2 from the most recent other host, and only if one of its pages was parsed', () => {
    const h = states();
    h.recordPage('a', 0.9);
    h.recordPage('b', 0);
    expect(describeState(h.state('b', 0))).toBe('(T,F,T,F)');
    h.recordDecision('a', true);
    expect(describeState(h.state('b', 0))).toBe('(T,T,T,F)');
    h.recordPage('b', 0);
    expect(describeState(h.state('b', 0))).toBe('(T,T,T,F)');
    h.recordPage('c', 0);
    expect(describeState(h.state('c', 0))).toBe('(T,F,T,F)');
  });
  it('numbers states with feature 1 as the high bit; R(s) counts true features', () => {
    expect(stateIndex(true, false, true, true)).toBe(11);
    expect(trueFeatureCount(11)).toBe(3);
    expect(trueFeatureCount(0)).toBe(0);
    expect(trueFeatureCount(15)).toBe(4);
  });
  it('gives the quantities behind the booleans as real features for lim-q:realState=1', () => {
    const h = states();
    h.recordPage('a', 0.6);
    h.recordDecision('a', true);
    h.recordPage('b', 0.2);
    h.recordDecision('b', false);
    h.recordPage('b', 0.4);
    // [bias, N_sp / (N_sp + N_ss + 1), previous host's mean, this host's mean, URL, N_pp / (N_pp + 10), page]
    const x = [...h.features('b', 0.5, 0.4)];
    const expected = [1, 0 / 2, 0.6, 0.3, 0.5, 1 / 11, 0.4];
    for (const [k, v] of x.entries()) expect(v).toBeCloseTo(expected[k] as number, 12);
  });
});
