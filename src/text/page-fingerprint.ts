/**
 * The fingerprint of a page's main content, not its boilerplate. Documentation sites and portals
 * repeat a navigation sidebar of hundreds of links on every page; fingerprinting the whole text
 * let those shared words outweigh each page's own (the LilyPond manual's ~15,000-character sidebar
 * made distinct notation pages near-copies). Navigation is links, so the SimHash here
 * is taken over the page's text with the text of its links cut out (each anchor text where it
 * occurs, in document order: the parser gives both in that order). A page that is nearly all links
 * (an index, a hub) keeps the whole-text SimHash: its link list is its content. The exact hash
 * stays over the whole text, so exact copies remain exact whatever their sidebars.
 */
import {
  type ContentFingerprint,
  contentFingerprint,
  SIMHASH_MAX_WORDS,
  simhash,
} from './content-fingerprint.js';

/** Fewest words of non-link text for the main-content SimHash; below it the whole text is used. */
export const MIN_MAIN_CONTENT_WORDS = 50;
/** How far past the previous link an anchor text is looked for, in characters (bounds the cost). */
const ANCHOR_SEARCH_CHARS = 2_000;

const SEPARATORS = /[^\p{L}\p{N}]+/gu;

/** What the fingerprint reads of a parsed page (an `html` ParsedPage fits). */
export interface FingerprintedPage {
  title: string;
  text: string;
  links: readonly { anchorText: string }[];
}

/** The page's visible text with each link's anchor text cut out where it occurs, in order. */
export function textOutsideLinks(text: string, links: FingerprintedPage['links']): string {
  const parts: string[] = [];
  let cursor = 0;
  for (const link of links) {
    const anchor = link.anchorText.trim();
    if (anchor === '') continue;
    const window = text.slice(cursor, cursor + ANCHOR_SEARCH_CHARS + anchor.length);
    const at = window.indexOf(anchor);
    if (at < 0) continue; // hidden or reshaped anchor text: leave the text as it is
    parts.push(window.slice(0, at));
    cursor += at + anchor.length;
  }
  parts.push(text.slice(cursor));
  return parts.join(' ');
}

function wordsOf(text: string): string[] {
  const normalised = text.toLowerCase().replace(SEPARATORS, ' ').trim();
  return normalised === '' ? [] : normalised.split(' ', SIMHASH_MAX_WORDS);
}

/**
 * Fingerprints of a page for duplicate detection: `exact` over title and whole text, `simhash`
 * over title and main content (text outside links) when it has at least
 * {@link MIN_MAIN_CONTENT_WORDS} words, else over title and whole text.
 */
export function pageFingerprint(page: FingerprintedPage): ContentFingerprint {
  const whole = contentFingerprint(`${page.title} ${page.text}`);
  const main = wordsOf(textOutsideLinks(page.text, page.links));
  if (main.length < MIN_MAIN_CONTENT_WORDS) return whole;
  return {
    exact: whole.exact,
    simhash: simhash([...wordsOf(page.title), ...main].slice(0, SIMHASH_MAX_WORDS)),
  };
}
