/**
 * A text accumulator that collapses whitespace as it goes and stops at a character cap, so a
 * page's text is built in one pass without a final regex over the whole string.
 */

// \s covers the Unicode spaces too (NBSP from `&nbsp;`, ideographic space, line separators).
const WHITESPACE_RUN = /\s+/g;
const NUL = /\u0000/g;

/** Collapsing, capped text accumulator. `toString()` gives the text trimmed at both ends. */
export class TextBuffer {
  private readonly parts: string[] = [];
  private length = 0;
  /** True at the start too, so leading whitespace is dropped. */
  private endsWithSpace = true;
  /** True once some text was dropped at the cap (not merely reached it). */
  isTruncated = false;

  /** @param maxChars cap on the stored text, in UTF-16 code units */
  constructor(private readonly maxChars: number) {}

  /** True once the cap is reached: further text is dropped. */
  get isFull(): boolean {
    return this.length >= this.maxChars;
  }

  /** Appends `raw` with each whitespace run turned into one space; NUL characters are dropped. */
  add(raw: string): void {
    if (this.length >= this.maxChars) {
      if (!this.isTruncated && hasNonSpaceChar(raw)) this.isTruncated = true;
      return;
    }
    let s = raw;
    if (needsCleaning(raw)) {
      if (raw.indexOf('\u0000') !== -1) s = s.replace(NUL, '');
      s = s.replace(WHITESPACE_RUN, ' ');
    }
    if (this.endsWithSpace && s.charCodeAt(0) === 32) s = s.slice(1);
    if (s.length === 0) return;
    const room = this.maxChars - this.length;
    if (s.length > room) {
      if (s.slice(room).trim() !== '') this.isTruncated = true;
      // Do not cut a surrogate pair in half.
      const code = s.charCodeAt(room - 1);
      s = s.slice(0, code >= 0xd800 && code <= 0xdbff ? room - 1 : room);
    }
    this.parts.push(s);
    this.length += s.length;
    this.endsWithSpace = s.charCodeAt(s.length - 1) === 32;
  }

  /** Appends a word boundary (one space unless the text is empty or already ends with one). */
  space(): void {
    if (this.endsWithSpace || this.length >= this.maxChars) return;
    this.parts.push(' ');
    this.length += 1;
    this.endsWithSpace = true;
  }

  toString(): string {
    const text = this.parts.length === 1 ? (this.parts[0] as string) : this.parts.join('');
    return this.endsWithSpace ? text.trimEnd() : text;
  }
}

/**
 * True if `s` holds NUL, whitespace other than single spaces, or two spaces in a row. Most text
 * pieces need no regex replace at all; a character scan is cheaper than the replace's copy.
 */
function needsCleaning(s: string): boolean {
  let isPrevSpace = false;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 32) {
      if (isPrevSpace) return true;
      isPrevSpace = true;
    } else if (c === 0 || (c >= 9 && c <= 13) || c === 0xa0 || (c >= 0x1680 && isUnicodeSpace(c))) {
      return true;
    } else {
      isPrevSpace = false;
    }
  }
  return false;
}

/** The non-ASCII members of JavaScript's `\s` (from U+1680 up). */
function isUnicodeSpace(c: number): boolean {
  return (
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}

function hasNonSpaceChar(s: string): boolean {
  return /[^\s\u0000]/.test(s);
}
