/**
 * Debian version order (Debian Policy 5.6.12, dpkg's `verrevcmp`): `[epoch:]upstream[-revision]`,
 * epochs compared as numbers, then upstream and revision each by alternating non-digit parts
 * (letters before non-letters, `~` before everything, even the end) and digit parts (as numbers).
 */

/** dpkg's order of one character of a non-digit part: `~` lowest, then the end, letters, others. */
function order(c: string | undefined): number {
  if (c === undefined) return 0;
  if (c === '~') return -1;
  if (/[A-Za-z]/.test(c)) return c.charCodeAt(0);
  return c.charCodeAt(0) + 256;
}

const isDigit = (c: string | undefined): boolean => c !== undefined && c >= '0' && c <= '9';

/** dpkg's `verrevcmp` on one upstream or revision string: negative, 0 or positive. */
function compareParts(a: string, b: string): number {
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    let firstDiff = 0;
    while ((i < a.length && !isDigit(a[i])) || (j < b.length && !isDigit(b[j]))) {
      const ac = order(i < a.length ? a[i] : undefined);
      const bc = order(j < b.length ? b[j] : undefined);
      if (ac !== bc) return ac - bc;
      i++;
      j++;
    }
    while (a[i] === '0') i++;
    while (b[j] === '0') j++;
    while (isDigit(a[i]) && isDigit(b[j])) {
      if (firstDiff === 0) firstDiff = a.charCodeAt(i) - b.charCodeAt(j);
      i++;
      j++;
    }
    if (isDigit(a[i])) return 1;
    if (isDigit(b[j])) return -1;
    if (firstDiff !== 0) return firstDiff;
  }
  return 0;
}

function split(version: string): { epoch: number; upstream: string; revision: string } {
  const colon = version.indexOf(':');
  const epoch = colon > 0 ? Number(version.slice(0, colon)) || 0 : 0;
  const rest = colon > 0 ? version.slice(colon + 1) : version;
  const dash = rest.lastIndexOf('-');
  return dash >= 0
    ? { epoch, upstream: rest.slice(0, dash), revision: rest.slice(dash + 1) }
    : { epoch, upstream: rest, revision: '' };
}

/** Compares two Debian versions: negative if `a` is older, 0 if equal, positive if newer. */
export function compareDebianVersions(a: string, b: string): number {
  const x = split(a);
  const y = split(b);
  if (x.epoch !== y.epoch) return x.epoch - y.epoch;
  return compareParts(x.upstream, y.upstream) || compareParts(x.revision, y.revision);
}
