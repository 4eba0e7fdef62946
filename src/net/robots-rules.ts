/**
 * robots.txt parsed into groups of rules, and a matcher linear in the length of the path for any
 * pattern (RFC 9309). The parsing follows robots-parser 3.0.1 line for line (the property test
 * `robots-rules.property.test.ts` holds the two to the same answers), so only the matching
 * changed: robots-parser (like Google's robots.cc) tracks every prefix length of the path a
 * pattern could have matched so far, O(pattern x path) per rule, which let a 481 KB file of 120
 * rules of 2,000 `*` hold a check for seconds.
 *
 * Here each pattern is compiled once: runs of `*` collapse to one (RFC 9309 2.2.3: `*` matches
 * any sequence, so `**` is `*`), the pattern splits at `*` into literal pieces, and a path
 * matches when the first piece is its prefix and each next piece occurs after the previous one,
 * leftmost first (taking the leftmost occurrence never loses a match: it leaves the most path
 * for the pieces after it). A final `$` anchors the last piece at the end of the path; elsewhere
 * `$` is an ordinary character (as in robots.cc). Pieces are found with Knuth-Morris-Pratt, so a
 * rule costs O(path + pattern) whatever the file holds.
 *
 * Precedence (RFC 9309 2.2.2): the matching rule with the longest pattern wins; between an allow
 * and a disallow rule of the same length, allow wins.
 */

/** One Allow or Disallow line, its pattern percent-encoded as paths are compared. */
export interface RobotsRule {
  /** The pattern as written, normalised (`normaliseEncoding`); its length sets precedence. */
  pattern: string;
  isAllow: boolean;
  /** 1-based line of robots.txt the rule comes from. */
  lineNumber: number;
  /** The compiled matcher of `pattern`. */
  matches: (path: string) => boolean;
}

/** The rules and Crawl-delay of one user-agent token. */
export interface RobotsGroup {
  rules: RobotsRule[];
  /** Crawl-delay in seconds as written (may be 0 or negative); undefined when not given. */
  crawlDelaySeconds?: number;
}

/** A parsed robots.txt. */
export interface RobotsRules {
  /** Groups by lower-cased product token (`*` for the default group). */
  groups: Map<string, RobotsGroup>;
  /** Sitemap URLs, in file order. */
  sitemaps: string[];
}

/**
 * The KMP failure tables of `pieces`, end to end in one array (one allocation per pattern, not
 * per piece: a pattern of 2,000 pieces would otherwise cost 2,000 typed arrays); entry
 * `offsets[p] + i` is the length of the longest proper border of `pieces[p]`'s prefix of i + 1.
 */
function failureTables(pieces: readonly string[]): { tables: Int32Array; offsets: Int32Array } {
  const offsets = new Int32Array(pieces.length);
  let total = 0;
  for (let p = 0; p < pieces.length; p++) {
    offsets[p] = total;
    total += (pieces[p] as string).length;
  }
  const tables = new Int32Array(total);
  for (let p = 0; p < pieces.length; p++) {
    const piece = pieces[p] as string;
    const base = offsets[p] as number;
    let k = 0;
    for (let i = 1; i < piece.length; i++) {
      while (k > 0 && piece.charCodeAt(i) !== piece.charCodeAt(k)) k = tables[base + k - 1] as number;
      if (piece.charCodeAt(i) === piece.charCodeAt(k)) k++;
      tables[base + i] = k;
    }
  }
  return { tables, offsets };
}

/**
 * Index just past the leftmost occurrence of `piece` in `text` at or after `from`, or -1, in
 * O(text - from) steps whatever the piece (Knuth-Morris-Pratt; `base` is its table's offset).
 */
function findAfter(text: string, piece: string, tables: Int32Array, base: number, from: number): number {
  if (piece.length === 1) {
    const c = piece.charCodeAt(0);
    for (let i = from; i < text.length; i++) if (text.charCodeAt(i) === c) return i + 1;
    return -1;
  }
  let k = 0;
  for (let i = from; i < text.length; i++) {
    const c = text.charCodeAt(i);
    while (k > 0 && c !== piece.charCodeAt(k)) k = tables[base + k - 1] as number;
    if (c === piece.charCodeAt(k)) k++;
    if (k === piece.length) return i + 1;
  }
  return -1;
}

/**
 * Compiles a robots.txt path pattern (`*` any sequence, a final `$` the end of the path) into a
 * matcher that runs in O(path + pattern) time.
 */
export function compileRobotsPattern(pattern: string): (path: string) => boolean {
  const isAnchored = pattern.endsWith('$');
  const body = isAnchored ? pattern.slice(0, -1) : pattern;
  const pieces = body.split(/\*+/);
  if (pieces.length === 1) return isAnchored ? (path) => path === body : (path) => path.startsWith(body);
  const first = pieces[0] as string;
  const last = pieces.at(-1) as string;
  // Pieces to find in order; without `$` the last one is found like the others.
  const found = pieces.slice(1, isAnchored ? -1 : undefined).filter((piece) => piece.length > 0);
  const { tables, offsets } = failureTables(found);
  return (path) => {
    if (!path.startsWith(first)) return false;
    let at = first.length;
    for (let p = 0; p < found.length; p++) {
      at = findAfter(path, found[p] as string, tables, offsets[p] as number, at);
      if (at < 0) return false;
    }
    return !isAnchored || (path.length - last.length >= at && path.endsWith(last));
  };
}

/** `%2a` -> `%2A`: percent-encodings compare case-insensitively. */
export function upperPercentEncodings(path: string): string {
  return path.replace(/%[0-9a-fA-F]{2}/g, (match) => match.toUpperCase());
}

/** A pattern as paths are compared: non-ASCII percent-encoded, `%xx` upper case (robots-parser). */
function normaliseEncoding(pattern: string): string {
  try {
    return upperPercentEncodings(encodeURI(pattern).replace(/%25/g, '%'));
  } catch {
    return pattern; // a lone surrogate: keep the pattern as written
  }
}

/** A product token as groups are keyed: lower case, without a `/version`. */
export function formatUserAgent(userAgent: string): string {
  const lower = userAgent.toLowerCase();
  const slash = lower.indexOf('/');
  return (slash > -1 ? lower.slice(0, slash) : lower).trim();
}

/** robots.txt lines as [field, value], trimmed, comments removed; null for a line without `:`. */
function splitLines(contents: string): ([string, string] | null)[] {
  return contents.split(/\r\n|\r|\n/).map((raw) => {
    const hash = raw.indexOf('#');
    const line = hash > -1 ? raw.slice(0, hash) : raw;
    const colon = line.indexOf(':');
    if (colon < 0) return null;
    return [line.slice(0, colon).trim(), line.slice(colon + 1).trim()];
  });
}

/**
 * Parses robots.txt: consecutive User-agent lines open a group, Allow/Disallow/Crawl-delay lines
 * apply to the group open, Sitemap lines anywhere. Unknown lines are ignored; never throws.
 */
export function parseRobotsTxt(contents: string): RobotsRules {
  const groups = new Map<string, RobotsGroup>();
  const sitemaps: string[] = [];
  const groupOf = (agent: string): RobotsGroup => {
    let group = groups.get(agent);
    if (!group) {
      group = { rules: [] };
      groups.set(agent, group);
    }
    return group;
  };
  let agents: string[] = [];
  let isAfterUserAgent = false;
  const lines = splitLines(contents);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (!line?.[0]) continue;
    const [field, value] = line;
    const key = field.toLowerCase();
    switch (key) {
      case 'user-agent':
        if (!isAfterUserAgent) agents = [];
        if (value) agents.push(formatUserAgent(value));
        break;
      case 'allow':
      case 'disallow':
        for (const agent of agents) {
          const group = groupOf(agent);
          if (!value) continue; // an empty pattern matches nothing (RFC 9309 2.2.2)
          const pattern = normaliseEncoding(value);
          group.rules.push({
            pattern,
            isAllow: key === 'allow',
            lineNumber: i + 1,
            matches: compileRobotsPattern(pattern),
          });
        }
        break;
      case 'crawl-delay': {
        const delay = Number(value);
        for (const agent of agents) {
          const group = groupOf(agent);
          if (!Number.isNaN(delay)) group.crawlDelaySeconds = delay;
        }
        break;
      }
      case 'sitemap':
        if (value) sitemaps.push(value);
        break;
    }
    isAfterUserAgent = key === 'user-agent';
  }
  return { groups, sitemaps };
}

/** The group that applies to `userAgentToken`: its own, else `*`'s, else none. */
export function groupFor(rules: RobotsRules, userAgentToken: string): RobotsGroup | undefined {
  return rules.groups.get(formatUserAgent(userAgentToken)) ?? rules.groups.get('*');
}

/**
 * The rule that decides `path` (path and query, as in the URL): the longest matching pattern,
 * allow winning a tie; undefined when no rule matches (then the path is allowed).
 */
export function decidingRule(group: RobotsGroup | undefined, path: string): RobotsRule | undefined {
  if (!group) return undefined;
  const compared = upperPercentEncodings(path);
  let best: RobotsRule | undefined;
  for (const rule of group.rules) {
    if (best && rule.pattern.length < best.pattern.length) continue;
    if (best && rule.pattern.length === best.pattern.length && (best.isAllow || !rule.isAllow)) continue;
    if (rule.matches(compared)) best = rule;
  }
  return best;
}
