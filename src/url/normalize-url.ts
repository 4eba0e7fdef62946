/**
 * URL normalisation: one canonical spelling per page, so that the frontier, the store and the
 * seen-set do not count the same page twice. Built on the WHATWG URL parser (Node's `URL`),
 * which already lowercases the scheme and host, converts IDNs to punycode, removes default
 * ports and resolves dot segments (also `%2e` ones); the rules it leaves out are applied here
 * on the serialised parts (RFC 3986 section 6.2.2 syntax-based normalisation, plus the
 * crawler's usual session-id removal).
 */

/** Options of {@link normalizeUrl}. */
export interface NormalizeOptions {
  /**
   * Sort query parameters by name (a stable sort: values of a repeated name keep their order,
   * since some servers read `a=1&a=2` as a list). Off by default because parameter order can
   * matter to a server; turn on to merge `?a=1&b=2` and `?b=2&a=1`.
   * @default false
   */
  shouldSortQuery?: boolean;
  /**
   * Remove session-id query parameters (`jsessionid`, `phpsessid`, `sid`, `sessionid`,
   * `aspsessionid*`, `cfid`, `cftoken`, any case) and `;jsessionid=...` path parameters.
   * Turn off with `false`.
   * @default true
   */
  shouldRemoveSessionIds?: boolean;
}

/** Defaults of {@link NormalizeOptions}. */
export const DEFAULT_NORMALIZE_OPTIONS: Readonly<Required<NormalizeOptions>> = Object.freeze({
  shouldSortQuery: false,
  shouldRemoveSessionIds: true,
});

/** Query parameter names treated as session ids (compared lowercased). */
const SESSION_PARAMS: ReadonlySet<string> = new Set([
  'jsessionid',
  'phpsessid',
  'sid',
  'sessionid',
  'cfid',
  'cftoken',
]);
/** ASP classic appends a random suffix: `ASPSESSIONIDQQGGGNCU`. */
const SESSION_PARAM_PREFIX = 'aspsessionid';
/** Java servlet containers put the session in a path parameter: `/page;jsessionid=ABC?x=1`. */
const JSESSIONID_PATH_PARAM = /;jsessionid=[^/;]*/gi;

/**
 * Canonical form of an absolute http(s) URL.
 *
 * Applies, in order: WHATWG parsing (lowercase scheme and host, IDN to punycode, default port
 * 80/443 removed, dot segments resolved), fragment dropped, percent-encoding normalised in
 * path and query (hex uppercased, unreserved characters `A-Z a-z 0-9 - . _ ~` decoded),
 * session ids removed (and the dot segments they hid resolved), query parameters optionally
 * sorted, empty query `?` removed. The trailing slash of the path is kept as it is (`/a` and
 * `/a/` may be different pages). Idempotent: `normalizeUrl(normalizeUrl(x)) === normalizeUrl(x)`
 * (checked by property tests), so one page has one key.
 *
 * @param input an absolute URL; surrounding whitespace is ignored
 * @returns the normalised URL, or `undefined` if `input` does not parse or its scheme is not
 *   http or https (mailto:, javascript:, data:, ftp: ...). Never throws.
 */
export function normalizeUrl(input: string, options?: NormalizeOptions): string | undefined {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    return undefined;
  }
  const protocol = url.protocol;
  if (protocol !== 'http:' && protocol !== 'https:') return undefined;
  const shouldSortQuery = options?.shouldSortQuery ?? DEFAULT_NORMALIZE_OPTIONS.shouldSortQuery;
  const shouldRemoveSessionIds =
    options?.shouldRemoveSessionIds ?? DEFAULT_NORMALIZE_OPTIONS.shouldRemoveSessionIds;

  let path = normalizePercentEncoding(url.pathname);
  if (shouldRemoveSessionIds && path.indexOf(';') !== -1) {
    const stripped = path.replace(JSESSIONID_PATH_PARAM, '');
    // Pitfall: a session id can hide a dot segment (`/a/..;jsessionid=1/b` is not
    // `..` to the URL parser); once it is removed, resolve the segments it uncovered.
    if (stripped !== path) path = resolveDotSegments(stripped);
  }

  // `url.search` is '' both for no query and for an empty one (`?`), so `?` disappears here.
  let query = url.search;
  if (query !== '') {
    query = normalizePercentEncoding(query.slice(1));
    if (shouldRemoveSessionIds || shouldSortQuery)
      query = rewriteQuery(query, shouldRemoveSessionIds, shouldSortQuery);
  }

  const username = url.username;
  const password = url.password;
  const userinfo = password !== '' ? `${username}:${password}@` : username !== '' ? `${username}@` : '';
  // Built by hand rather than through the setters: they would re-parse and re-encode.
  return `${protocol}//${userinfo}${url.host}${path}${query === '' ? '' : `?${query}`}`;
}

/** `path` with `.` and `..` segments resolved as the WHATWG parser does; `path` if it fails. */
function resolveDotSegments(path: string): string {
  try {
    // The path came out of the parser already encoded: parsing it again only resolves dots.
    return new URL(`http://h${path}`).pathname;
  } catch {
    return path;
  }
}

/** Drops session-id parameters and optionally sorts by name; `query` has no leading `?`. */
function rewriteQuery(query: string, shouldRemoveSessionIds: boolean, shouldSortQuery: boolean): string {
  let params = query.split('&');
  if (shouldRemoveSessionIds) params = params.filter((param) => !isSessionParam(param));
  if (shouldSortQuery && params.length > 1) {
    // Array.prototype.sort is stable (ES2019), so equal names keep their order.
    params.sort((a, b) => {
      const nameA = paramName(a);
      const nameB = paramName(b);
      return nameA < nameB ? -1 : nameA > nameB ? 1 : 0;
    });
  }
  return params.join('&');
}

function paramName(param: string): string {
  const eq = param.indexOf('=');
  return eq === -1 ? param : param.slice(0, eq);
}

function isSessionParam(param: string): boolean {
  const name = paramName(param).toLowerCase();
  return SESSION_PARAMS.has(name) || name.startsWith(SESSION_PARAM_PREFIX);
}

/**
 * Uppercases the hex digits of every `%XX` and decodes those that encode an unreserved
 * character (RFC 3986 sections 2.3 and 6.2.2.2). A `%` not followed by two hex digits is left
 * alone: re-encoding it as `%25` could change what the server sees.
 *
 * Pitfall: decoding next to such a stray `%` can make a new escape (`%%41e` would
 * become `%Ae`, which the next pass would turn into `%AE`). So an escape whose character is a
 * hex digit is kept encoded when it would complete a `%HH` with a stray `%` before it; the
 * result is then its own normal form.
 */
export function normalizePercentEncoding(s: string): string {
  let pct = s.indexOf('%');
  if (pct === -1) return s;
  let out = '';
  let from = 0;
  /** Position in the output of the last stray `%`, -3 if none. */
  let strayAt = -3;
  while (pct !== -1) {
    const hi = hexValue(s.charCodeAt(pct + 1));
    const lo = hexValue(s.charCodeAt(pct + 2));
    if (hi !== -1 && lo !== -1) {
      const byte = hi * 16 + lo;
      out += s.slice(from, pct);
      out +=
        isUnreserved(byte) && !completesEscape(out, strayAt, byte)
          ? String.fromCharCode(byte)
          : `%${HEX[hi]}${HEX[lo]}`;
      from = pct + 3;
    } else {
      strayAt = out.length + (pct - from);
    }
    pct = s.indexOf('%', pct + 1);
  }
  return out + s.slice(from);
}

/**
 * True if `byte` is a hex digit that, appended to `out`, would directly follow the stray `%` at
 * `strayAt`, or follow it and a hex digit: it could be part of a new `%HH`.
 */
function completesEscape(out: string, strayAt: number, byte: number): boolean {
  if (hexValue(byte) === -1) return false;
  const at = out.length;
  return at === strayAt + 1 || (at === strayAt + 2 && hexValue(out.charCodeAt(strayAt + 1)) !== -1);
}

const HEX = '0123456789ABCDEF';

/** Value of one hex digit, -1 if `code` is not one (NaN past the end of the string is not). */
function hexValue(code: number): number {
  if (code >= 48 && code <= 57) return code - 48; // 0-9
  if (code >= 65 && code <= 70) return code - 55; // A-F
  if (code >= 97 && code <= 102) return code - 87; // a-f
  return -1;
}

/** RFC 3986 unreserved: ALPHA / DIGIT / "-" / "." / "_" / "~". */
function isUnreserved(byte: number): boolean {
  return (
    (byte >= 65 && byte <= 90) ||
    (byte >= 97 && byte <= 122) ||
    (byte >= 48 && byte <= 57) ||
    byte === 45 ||
    byte === 46 ||
    byte === 95 ||
    byte === 126
  );
}
