import { describe, expect, it } from 'vitest';
import { SlotGroups } from './tree-groups.js';

interface Slot<S> {
  sample: S;
  urlPos: number;
  domainPos: number;
}

function slot(name: string): Slot<string> {
  return { sample: name, urlPos: -1, domainPos: -1 };
}

describe('SlotGroups', () => {
  it('keeps each slot’s position equal to its index in its group through adds and removes', () => {
    const groups = new SlotGroups<Slot<string>>('urlPos');
    const [a, b, c] = [slot('a'), slot('b'), slot('c')];
    groups.add('k', a);
    expect([groups.count('k'), a.urlPos]).toEqual([1, 0]);
    groups.add('k', b);
    groups.add('k', c);
    expect([b.urlPos, c.urlPos]).toEqual([1, 2]);
    groups.remove('k', a); // c moves into a's place
    expect([groups.count('k'), c.urlPos, b.urlPos]).toEqual([2, 0, 1]);
    groups.remove('k', c); // back to a single slot, at position 0
    expect([groups.count('k'), b.urlPos]).toEqual([1, 0]);
    expect([...groups.entries()]).toEqual([['k', [b]]]);
    groups.remove('k', b);
    expect([groups.count('k'), groups.keyCount]).toEqual([0, 0]);
  });

  it('take removes and returns a whole group, single or not', () => {
    const groups = new SlotGroups<Slot<string>>('domainPos');
    const [a, b, c] = [slot('a'), slot('b'), slot('c')];
    groups.add('one', a);
    groups.add('two', b);
    groups.add('two', c);
    expect(groups.take('one')).toEqual([a]);
    expect(groups.take('two')).toEqual([b, c]);
    expect(groups.take('none')).toEqual([]);
    expect(groups.keyCount).toBe(0);
  });
});
