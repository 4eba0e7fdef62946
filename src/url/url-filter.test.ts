import { describe, expect, it } from 'vitest';
import { ConfigError } from '../common/index.js';
import { createUrlFilter, createUrlFilterReason, DEFAULT_URL_FILTER_OPTIONS } from './url-filter.js';

describe('createUrlFilter', () => {
  describe('with defaults', () => {
    const accepts = createUrlFilter();
    it.each([
      ['an html page', 'http://example.com/a/index.html', true],
      ['a page without extension', 'https://example.com/a/b', true],
      ['a folder', 'https://example.com/a/', true],
      ['a dotted folder followed by a file', 'https://example.com/v1.2/page', true],
      ['an extension in the query only', 'https://example.com/get?file=x.pdf', true],
      ['a pdf (its text is extracted)', 'https://example.com/paper.pdf', true],
      ['a word document', 'https://example.com/paper.docx', false],
      ['an upper-case image extension', 'https://example.com/IMG.JPG', false],
      ['an archive', 'https://example.com/src.tar.gz', false],
      ['a video', 'https://example.com/v.mp4?t=3', false],
      ['a stylesheet', 'https://example.com/site.css', false],
      ['an ftp URL', 'ftp://example.com/page', false],
      ['a mailto URL', 'mailto:a@example.com', false],
      ['a URL just at the length limit', `http://example.com/${'a'.repeat(2048 - 19)}`, true],
      ['a URL over the length limit', `http://example.com/${'a'.repeat(2048 - 18)}`, false],
    ])('%s -> %s', (_name, url, expected) => {
      expect(accepts(url)).toBe(expected);
    });
  });

  it('applies include patterns (at least one must match)', () => {
    const accepts = createUrlFilter({ includePatterns: ['/docs/', /\/manual\//] });
    expect(accepts('http://a.org/docs/x')).toBe(true);
    expect(accepts('http://a.org/manual/y')).toBe(true);
    expect(accepts('http://a.org/blog/z')).toBe(false);
  });

  it('applies exclude patterns after include patterns', () => {
    const accepts = createUrlFilter({ includePatterns: ['/docs/'], excludePatterns: ['/class-use/'] });
    expect(accepts('http://a.org/docs/x')).toBe(true);
    expect(accepts('http://a.org/docs/class-use/x')).toBe(false);
  });

  it('gives the same answer twice for a global RegExp', () => {
    const accepts = createUrlFilter({ excludePatterns: [/calendar/g] });
    expect(accepts('http://a.org/calendar/1')).toBe(false);
    expect(accepts('http://a.org/calendar/1')).toBe(false);
  });

  it('restricts to allowed domains and their subdomains', () => {
    const accepts = createUrlFilter({ allowedDomains: ['example.com', 'docs.python.org', '*.bücher.de'] });
    expect(accepts('http://example.com/')).toBe(true);
    expect(accepts('http://www.example.com/')).toBe(true);
    expect(accepts('http://docs.python.org/3/')).toBe(true);
    expect(accepts('http://python.org/')).toBe(false);
    expect(accepts('http://notexample.com/')).toBe(false);
    expect(accepts('http://shop.xn--bcher-kva.de/')).toBe(true);
  });

  it('admits other schemes when asked', () => {
    const accepts = createUrlFilter({ allowedSchemes: ['HTTPS:'] });
    expect(accepts('https://a.org/')).toBe(true);
    expect(accepts('http://a.org/')).toBe(false);
  });

  it('turns off the length limit and the extension list with false', () => {
    const accepts = createUrlFilter({ maxUrlLength: false, excludedExtensions: false });
    expect(accepts(`http://a.org/${'x'.repeat(5000)}.pdf`)).toBe(true);
  });

  it('uses a custom extension list with or without dots', () => {
    const accepts = createUrlFilter({ excludedExtensions: ['.TXT', 'xml'] });
    expect(accepts('http://a.org/readme.txt')).toBe(false);
    expect(accepts('http://a.org/sitemap.xml')).toBe(false);
    expect(accepts('http://a.org/paper.pdf')).toBe(true);
  });

  it('says why a URL is rejected, naming the option', () => {
    const why = createUrlFilterReason({ allowedDomains: ['a.org'], excludePatterns: ['/tmp/'] });
    expect(why('http://a.org/x.zip')).toBe(
      'its extension .zip is in excludedExtensions (files tres does not read)',
    );
    expect(why('http://b.org/x')).toBe('its host b.org is not in allowedDomains');
    expect(why('http://a.org/tmp/x')).toBe('it matches excludePatterns /\\/tmp\\//');
    expect(why('http://a.org/paper.pdf')).toBeUndefined();
  });

  it('keeps its defaults in one constant', () => {
    expect(DEFAULT_URL_FILTER_OPTIONS.maxUrlLength).toBe(2048);
    expect(DEFAULT_URL_FILTER_OPTIONS.excludedExtensions).not.toContain('pdf');
    expect(DEFAULT_URL_FILTER_OPTIONS.excludedExtensions).toContain('zip');
    expect(DEFAULT_URL_FILTER_OPTIONS.allowedDomains).toBe(false);
  });

  it.each([
    ['an invalid include pattern', { includePatterns: ['ok', '(unclosed'] }, 'includePatterns[1]'],
    ['an invalid exclude pattern', { excludePatterns: ['[z-a]'] }, 'excludePatterns[0]'],
    ['a zero max length', { maxUrlLength: 0 }, 'maxUrlLength'],
    ['a fractional max length', { maxUrlLength: 10.5 }, 'maxUrlLength'],
    ['no schemes', { allowedSchemes: [] }, 'allowedSchemes'],
    ['a bad scheme', { allowedSchemes: ['http', '1x'] }, 'allowedSchemes[1]'],
    ['an empty extension', { excludedExtensions: ['pdf', '.'] }, 'excludedExtensions[1]'],
    ['no domains', { allowedDomains: [] }, 'allowedDomains'],
    ['an invalid domain', { allowedDomains: ['ok.org', 'bad domain'] }, 'allowedDomains[1]'],
  ])('throws a ConfigError naming the field for %s', (_name, options, field) => {
    let thrown: unknown;
    try {
      createUrlFilter(options);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ConfigError);
    expect((thrown as ConfigError).context.field).toBe(field);
    expect((thrown as ConfigError).message).toContain(field);
  });
});
