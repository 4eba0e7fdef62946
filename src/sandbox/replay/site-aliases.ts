/**
 * The redirects real documentation sites answer for addresses that name their pages another
 * way, for a replay server that mirrors such sites: `example.org` and `www.example.org` are one
 * site (the one not served answers 301 to the other), and a version segment in a path names the
 * version served (`/en/stable/x` -> `/en/master/x`, `/3.4/library/x` -> `/3/library/x`,
 * `/library/x` -> `/3/library/x` as docs.python.org does, `/1.85.0/std/x` -> `/std/x` on a
 * site served at the host root). Links between documentation sites mostly use such addresses
 * (intersphinx, "latest" and "stable" links, versioned API links), so without them a mirror
 * answers 404 where the real web answers the page. Pure: no I/O; a redirect may still end in a
 * 404 when the version served lacks the page, as on the real web.
 */

/** A path segment that names a version of a documentation tree. */
const VERSION =
  /^(v?\d+(\.\d+)*(\.x)?|stable|latest|current|master|main|dev|devel|nightly|release|beta|unstable)$/i;
/** Version segments dropped in front of a site served at the host root (never folder-like names). */
const DROPPABLE = /^(v?\d+(\.\d+)*(\.x)?|stable|latest|current|nightly)$/i;

const segmentsOf = (path: string) => path.split('/').slice(1);

/** The other spelling of a host: `www.` added or removed. */
export function wwwAlias(host: string): string {
  return host.startsWith('www.') ? host.slice(4) : `www.${host}`;
}

/**
 * Where a path that no site below the root serves goes, given the prefixes of the host's sites:
 * a prefix whose version segment the path names differently (or leaves out), or the path without
 * a leading version segment when a site is served at the root. Undefined if none applies.
 *
 * @param path the request path (starts with `/`)
 * @param prefixes the host's site prefixes (each starts and ends with `/`)
 */
export function versionAlias(path: string, prefixes: readonly string[]): string | undefined {
  const wanted = segmentsOf(path);
  for (const prefix of prefixes) {
    if (prefix === '/') continue;
    const have = segmentsOf(prefix).slice(0, -1);
    if (have.every((seg) => !VERSION.test(seg))) continue;
    // Same number of segments, the differing ones both versions: /en/stable/x for /en/master/.
    if (wanted.length > have.length) {
      const head = wanted.slice(0, have.length);
      const isSameBut = head.every(
        (seg, i) => seg === have[i] || (VERSION.test(seg) && VERSION.test(have[i] as string)),
      );
      if (isSameBut) return prefix + wanted.slice(have.length).join('/');
    }
    // The version left out: /library/x for /3/library/x, /docs/x for /docs/15/x.
    for (let j = 0; j < have.length; j++) {
      if (!VERSION.test(have[j] as string)) continue;
      const without = [...have.slice(0, j), ...have.slice(j + 1)];
      if (wanted.length > without.length && without.every((seg, i) => seg === wanted[i])) {
        const rest = wanted.slice(without.length);
        // /docs/15/ asked as /docs/16/ is the first case; here the path must not name a version.
        if (!VERSION.test(rest[0] as string)) return prefix + rest.join('/');
      }
    }
  }
  const first = wanted[0] ?? '';
  if (
    prefixes.includes('/') &&
    wanted.length > 1 &&
    DROPPABLE.test(first) &&
    !prefixes.some((p) => p.startsWith(`/${first}/`))
  )
    return `/${wanted.slice(1).join('/')}`;
  return undefined;
}
