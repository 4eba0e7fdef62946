import { describe, expect, it } from 'vitest';
import { TextBuffer } from './text-buffer.js';

describe('TextBuffer', () => {
  it('collapses whitespace across pieces and trims both ends', () => {
    const buffer = new TextBuffer(100);
    buffer.add('  one \n');
    buffer.add('\t two');
    buffer.space();
    buffer.space();
    buffer.add('three  ');
    expect(buffer.toString()).toBe('one two three');
  });

  it('joins pieces without whitespace into one word', () => {
    const buffer = new TextBuffer(100);
    buffer.add('thr');
    buffer.add('ee');
    expect(buffer.toString()).toBe('three');
  });

  it('stops at the cap', () => {
    const buffer = new TextBuffer(5);
    buffer.add('abc');
    buffer.space();
    buffer.add('defgh');
    expect(buffer.isFull).toBe(true);
    buffer.add('more');
    expect(buffer.toString()).toBe('abc d');
  });

  it('does not cut a surrogate pair at the cap', () => {
    const buffer = new TextBuffer(2);
    buffer.add('a😀');
    expect(buffer.toString()).toBe('a');
  });

  it('drops NUL characters', () => {
    const buffer = new TextBuffer(10);
    buffer.add('a\u0000b');
    expect(buffer.toString()).toBe('ab');
  });
});

describe('TextBuffer whitespace rules', () => {
  it.each([
    ['single spaces kept', 'a b c', 'a b c'],
    ['double spaces', 'a  b', 'a b'],
    ['tab, newline, CR, FF, VT', 'a\tb\nc\rd\fe\vf', 'a b c d e f'],
    ['no-break space', 'a\u00a0b', 'a b'],
    ['Unicode spaces', 'a\u2003b\u3000c\u2028d\ufeffe', 'a b c d e'],
    ['other control characters kept', 'a\u0001b', 'a\u0001b'],
  ])('%s', (_name, input, expected) => {
    const buffer = new TextBuffer(100);
    buffer.add(input);
    expect(buffer.toString()).toBe(expected);
  });
});
