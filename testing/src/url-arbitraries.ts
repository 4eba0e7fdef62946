/**
 * fast-check generators of URL-shaped strings full of the parts normalisation must get right
 * (dot segments, session ids, percent escapes good and bad, IDN, ports, odd schemes), for the
 * property tests of this room and the fuzz benchmark (`npm run bench -- fuzz`). Test support:
 * not exported from `index.ts` (fast-check is a dev dependency).
 */
import fc from 'fast-check';

const SCHEMES = [
  'http',
  'https',
  'HTTP',
  'hTTpS',
  'ftp',
  'mailto',
  'javascript',
  'data',
  'file',
  'ws',
  'x-y',
];
const SCHEME_ENDS = ['://', ':', ':/', ':///', ':\\\\', '://\t'];
const USERINFO = ['', 'user@', 'user:pw@', ':@', 'us%40er:p%3Aw@', '@', 'a:b:c@'];
const HOSTS = [
  'example.com',
  'EXAMPLE.com',
  'example.com.',
  'sub.example.co.uk',
  'bücher.de',
  'xn--bcher-kva.de',
  'ÉCOLE.fr',
  '127.0.0.1',
  '127.1',
  '0x7f.1',
  '2130706433',
  '[::1]',
  '[2001:DB8::1]',
  'h',
  'a-b.c_d',
  'exa%41mple.com',
  'xn--',
  '',
];
const PORTS = ['', ':80', ':443', ':8080', ':', ':0', ':65535', ':65536', ':08'];
const SEGMENTS = [
  '.',
  '..',
  '%2e',
  '%2E%2e',
  '.%2E',
  '...',
  'a',
  'B',
  '',
  ';jsessionid=1',
  'p;jsessionid=AbC',
  '..;jsessionid=1',
  '.;JSESSIONID=x',
  ';jsessionid=',
  ';v=1',
  '%zz',
  '%',
  '%%',
  '%4',
  '%41',
  '%61',
  '%7e',
  '%2F',
  '%2f',
  '%25',
  '%%41e',
  '%3%34',
  'ü',
  '%C3%BC',
  ' ',
  '\\',
  '#',
  '?',
  '|',
  '{x}',
  'a.html',
];
const PARAMS = [
  'a=1',
  'b=%41',
  'jsessionid=1',
  'PHPSESSID=x',
  'sid=2',
  'sidebar=1',
  'ASPSESSIONIDQQ=1',
  '%6Asessionid=3',
  '',
  '=',
  '&',
  'q=a+b',
  'q=%zz%%41',
  'x=ü',
  'a=1#frag',
  'x=%',
  'y=%4',
  '%41',
  '%31=1',
];
const FRAGMENTS = ['', '#', '#top', '#a?b=1', '#%41'];

/** A URL assembled from tricky parts; many parse, some do not, some are not http(s). */
export const urlLike: fc.Arbitrary<string> = fc
  .record({
    space: fc.constantFrom('', ' ', '\n', '\t'),
    scheme: fc.constantFrom(...SCHEMES),
    schemeEnd: fc.constantFrom(...SCHEME_ENDS),
    userinfo: fc.constantFrom(...USERINFO),
    host: fc.constantFrom(...HOSTS),
    port: fc.constantFrom(...PORTS),
    segments: fc.array(fc.oneof(fc.constantFrom(...SEGMENTS), fc.string({ maxLength: 4 })), { maxLength: 8 }),
    separator: fc.constantFrom('/', '/', '/', '\\', '//'),
    query: fc.option(fc.array(fc.constantFrom(...PARAMS), { maxLength: 5 }), { nil: undefined }),
    fragment: fc.constantFrom(...FRAGMENTS),
  })
  .map(
    (u) =>
      `${u.space}${u.scheme}${u.schemeEnd}${u.userinfo}${u.host}${u.port}` +
      `${u.segments.map((s) => `${u.separator}${s}`).join('')}` +
      `${u.query === undefined ? '' : `?${u.query.join('&')}`}${u.fragment}${u.space}`,
  );

/** An http(s) URL prefix followed by any string: every character a path or query may see. */
export const httpThenAnything: fc.Arbitrary<string> = fc
  .tuple(fc.constantFrom('http://h/', 'https://example.com/a/', 'http://h/?'), fc.string({ unit: 'binary' }))
  .map(([prefix, rest]) => prefix + rest);

/** Any input normalisation and the URL filter may be given. */
export const anyUrlInput: fc.Arbitrary<string> = fc.oneof(
  urlLike,
  httpThenAnything,
  fc.string({ unit: 'binary' }),
);
