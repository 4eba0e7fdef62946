/**
 * Telling HTML from plain text in training folders whose files have no telling extension.
 * (Text extraction itself is the html room's `parseHtml`, the crawler's own parser.)
 */

/** True if `content` looks like HTML rather than plain text. */
export function looksLikeHtml(content: string): boolean {
  const head = content.slice(0, 2000).toLowerCase();
  return /<(!doctype html|html|head|body|title|p|div)[\s>]/.test(head);
}
