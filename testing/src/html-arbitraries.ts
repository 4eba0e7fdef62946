/**
 * fast-check generators of hostile and broken HTML, for the property tests of this room and
 * the fuzz benchmark (`npm run bench -- fuzz`). Test support: not exported from `index.ts`
 * (fast-check is a dev dependency).
 */
import fc from 'fast-check';

const TAGS = (
  'a div p span b i table tr td th tbody thead tfoot li ul ol dd dt option optgroup select ' +
  'input button textarea form h1 h2 body head html title script style template noscript ' +
  'iframe xmp svg math desc foreignObject mi annotation-xml br img hr area base meta link ' +
  'wbr rt rp pre DIV A TiTlE SCRIPT'
).split(' ');

const ATTRIBUTES = [
  'href="/a"',
  "href='http://example.com/x?y=1&amp;z=2'",
  'href=relative.html',
  'href',
  'href="javascript:alert(1)"',
  'href=" #frag"',
  'href="http://[::1"',
  'rel="nofollow noopener"',
  'REL=NOFOLLOW',
  'alt="an image"',
  'name="robots" content="noindex, nofollow"',
  'http-equiv="refresh" content="0; url=/next"',
  'http-equiv=Refresh content=\'5;URL="x y"\'',
  'rel=canonical href=/c',
  'lang=EN',
  'href="/a" href="/b"',
  'title="unterminated',
  'x=&#x41;&amp;&bogus;',
  'a=1/',
];

const PIECES = [
  '<',
  '</',
  '>',
  '/>',
  '<!-- c -->',
  '<!--',
  '-->',
  '<!doctype html>',
  '<?xml version="1.0"?>',
  '<![CDATA[ x < y ]]>',
  '&amp;',
  '&#65;',
  '&#x1F600;',
  '&#0;',
  '&#xD800;',
  '&nbsp;',
  '&am',
  '&notin;',
  '&',
  ' ',
  '\n',
  '\u0000',
  '\uD83D',
  'text',
  'ü',
  '"',
  "'",
  '=',
];

/** One piece of markup: a tag (open, close or self-closing, with attributes), a token or text. */
export const markupPiece: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...TAGS).map((t) => `<${t}>`) },
  { weight: 3, arbitrary: fc.constantFrom(...TAGS).map((t) => `</${t}>`) },
  {
    weight: 2,
    arbitrary: fc
      .tuple(
        fc.constantFrom(...TAGS),
        fc.array(fc.constantFrom(...ATTRIBUTES), { maxLength: 3 }),
        fc.boolean(),
      )
      .map(([t, attrs, isSelfClosing]) => `<${t} ${attrs.join(' ')}${isSelfClosing ? '/' : ''}>`),
  },
  { weight: 3, arbitrary: fc.constantFrom(...PIECES) },
  { weight: 1, arbitrary: fc.string({ maxLength: 8, unit: 'binary' }) },
);

/** Broken, nested, hostile HTML of up to `maxPieces` pieces. */
export function htmlDocument(maxPieces = 60): fc.Arbitrary<string> {
  return fc.array(markupPiece, { maxLength: maxPieces }).map((pieces) => pieces.join(''));
}

/** Any string at all, or generated markup: both must parse without a throw. */
export const anyHtml: fc.Arbitrary<string> = fc.oneof(
  htmlDocument(),
  fc.string({ maxLength: 200, unit: 'binary' }),
);

/** The `content` of a meta refresh: well-formed, near-misses and junk. */
export const metaRefreshContent: fc.Arbitrary<string> = fc.oneof(
  fc
    .array(
      fc.constantFrom(
        '0',
        '5',
        '.5',
        '1.2.3',
        ';',
        ',',
        ' ',
        '\t',
        'url',
        'URL',
        '=',
        ' = ',
        '"',
        "'",
        '/next',
        'http://example.com/x',
        'javascript:x',
        '',
      ),
      { maxLength: 10 },
    )
    .map((parts) => parts.join('')),
  fc.string({ maxLength: 40, unit: 'binary' }),
);
