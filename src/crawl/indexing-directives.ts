/**
 * What a page lets a crawler do with it, from its `X-Robots-Tag` response header and its
 * `<meta name="robots">` (Google's and Bing's documented syntax; RFC 9309 leaves both out):
 * `noindex` (do not keep the page in an index), `nofollow` (do not follow its links), `none` (both).
 * A header value is a comma-separated list of directives, optionally after a `token:` prefix that
 * limits them to one crawler: `X-Robots-Tag: otherbot: noindex, tres: nofollow`. Directives
 * without a known meaning (`noarchive`, `max-snippet: 20`, `unavailable_after: ...`) are ignored.
 */

/** The directives that apply to one page. */
export interface IndexingDirectives {
  isNoindex: boolean;
  isNofollow: boolean;
}

const PREFIX = /^\s*([a-z0-9_-]+)\s*:\s*(.*)$/i;
/** Directives whose own value follows a colon; a word before one of them is not a crawler token. */
const VALUED = new Set(['max-snippet', 'max-image-preview', 'max-video-preview', 'unavailable_after']);

/**
 * Reads an `X-Robots-Tag` header value (repeated headers joined by ", ", as the fetcher gives
 * them) for the crawler whose product token is `userAgentToken` (any case).
 */
export function parseXRobotsTag(value: string | undefined, userAgentToken: string): IndexingDirectives {
  const out: IndexingDirectives = { isNoindex: false, isNofollow: false };
  if (!value) return out;
  const token = userAgentToken.toLowerCase();
  // A `name:` prefix switches the crawler the following directives apply to, up to the next one.
  let isOurs = true;
  for (const raw of value.split(',')) {
    let part = raw.trim().toLowerCase();
    const prefixed = PREFIX.exec(part);
    if (prefixed && !VALUED.has(prefixed[1] as string)) {
      isOurs = prefixed[1] === token;
      part = (prefixed[2] as string).trim();
    }
    if (!isOurs) continue;
    if (part === 'noindex' || part === 'none') out.isNoindex = true;
    if (part === 'nofollow' || part === 'none') out.isNofollow = true;
  }
  return out;
}
