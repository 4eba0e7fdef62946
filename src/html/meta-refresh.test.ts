import { describe, expect, it } from 'vitest';
import { parseMetaRefreshUrl } from './meta-refresh.js';

describe('parseMetaRefreshUrl', () => {
  it.each([
    ['0; url=http://a.org/', 'http://a.org/'],
    ['0;URL=/next', '/next'],
    ["0; url='quoted.html'", 'quoted.html'],
    ['0; url="double.html" trailing', 'double.html'],
    ["0;url='unterminated.html", 'unterminated.html'],
    ['  5 ;  URL  =  spaced.html  ', 'spaced.html'],
    ['0,url=comma.html', 'comma.html'],
    ['0 url=space.html', 'space.html'],
    ['0; direct.html', 'direct.html'],
    ["0; 'quoted-direct.html'", 'quoted-direct.html'],
    ['0.5; url=fraction.html', 'fraction.html'],
    ['.5; url=dot.html', 'dot.html'],
    ['0; url.html', 'url.html'],
    ['0; up.html', 'up.html'],
  ])('reads %j', (content, expected) => {
    expect(parseMetaRefreshUrl(content)).toBe(expected);
  });

  it.each([
    ['a plain reload', '30'],
    ['an empty content', ''],
    ['no time', 'url=x.html'],
    ['a bad separator', '0x; url=x.html'],
    ['an empty url', '0; url='],
    ['empty quotes', "0; url=''"],
  ])('gives undefined for %s', (_name, content) => {
    expect(parseMetaRefreshUrl(content)).toBeUndefined();
  });
});
