/**
 * The URL of `<meta http-equiv="refresh" content="...">`, read with the HTML standard's
 * "shared declarative refresh steps" (WHATWG HTML, section 4.2.5.3), which is what browsers
 * accept: `0; url=x`, `0;URL='x'`, `5 , url = "x"`, `0; x` (no `url=`), `0.5;url=x`.
 */

/**
 * The target written in a refresh `content` attribute, not yet resolved.
 *
 * @returns the URL string, or `undefined` if the content is malformed or only reloads the
 *   same page (`"5"`). Never throws.
 */
export function parseMetaRefreshUrl(content: string): string | undefined {
  const n = content.length;
  let i = skipSpaces(content, 0);
  const timeStart = i;
  while (i < n && isDigit(content.charCodeAt(i))) i++;
  if (i === timeStart && content.charCodeAt(i) !== 46) return undefined; // no time: not a refresh
  while (i < n && (isDigit(content.charCodeAt(i)) || content.charCodeAt(i) === 46)) i++;
  if (i >= n) return undefined; // time only: reload the same page
  const sep = content.charCodeAt(i);
  if (sep !== 59 && sep !== 44 && !isSpace(sep)) return undefined; // ';' ',' or space must follow
  i = skipSpaces(content, i);
  if (content.charCodeAt(i) === 59 || content.charCodeAt(i) === 44) i = skipSpaces(content, i + 1);
  if (i >= n) return undefined;

  // "url =" is optional; without "=" the text from here on is the URL itself.
  const urlStart = i;
  if (content.slice(i, i + 3).toLowerCase() === 'url') {
    const afterUrl = skipSpaces(content, i + 3);
    if (content.charCodeAt(afterUrl) === 61) {
      i = skipSpaces(content, afterUrl + 1);
      return unquote(content, i);
    }
    return nonEmpty(content.slice(urlStart).trim());
  }
  return unquote(content, i);
}

/** The rest of `content` from `i`, cut at the closing quote if it starts with one. */
function unquote(content: string, i: number): string | undefined {
  const quote = content.charCodeAt(i);
  if (quote === 34 || quote === 39) {
    const end = content.indexOf(content[i] as string, i + 1);
    return nonEmpty(content.slice(i + 1, end === -1 ? undefined : end).trim());
  }
  return nonEmpty(content.slice(i).trim());
}

function nonEmpty(s: string): string | undefined {
  return s === '' ? undefined : s;
}

function skipSpaces(s: string, i: number): number {
  while (i < s.length && isSpace(s.charCodeAt(i))) i++;
  return i;
}

/** ASCII whitespace of the HTML standard: tab, LF, FF, CR, space. */
function isSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 12 || c === 13;
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}
