/**
 * HTML of a synthetic page, computed from the page's own random streams ('text', 'anchors'):
 * a title and paragraphs drawn from the page topic's vocabulary and the common one, keywords in
 * a share of pages, links inside the text (so anchors have topical context), a navigation bar and
 * a list of related links. Hubs list their links as a directory.
 */
import type { Rng } from '../../common/index.js';
import { escapeHtml } from '../replay/index.js';
import { logNormalInt, zipfRank } from './distributions.js';
import { type LinkTarget, outLinks } from './page-links.js';
import type { WebModel } from './web-model.js';

/** Share of words drawn from a random other topic (topical noise). */
const OTHER_TOPIC_WORD_SHARE = 0.03;
/** Share of anchors of topical links that hold one of the target topic's keywords. */
const ANCHOR_KEYWORD_SHARE = 0.15;

const capitalize = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

/** Display name of a host: its registrable domain's first label, capitalized. */
export function siteTitleOf(model: WebModel, h: number): string {
  const domain = model.table.domains[h] as string;
  return domain.slice(0, domain.indexOf('.')).split('-').map(capitalize).join(' ');
}

function topicWord(model: WebModel, rng: Rng, t: number): string {
  const words = model.vocabulary.topicWords[t] as string[];
  return words[zipfRank(rng, words.length)] as string;
}

function commonWord(model: WebModel, rng: Rng): string {
  const words = model.vocabulary.commonWords;
  return words[zipfRank(rng, words.length)] as string;
}

function textWord(model: WebModel, rng: Rng, t: number): string {
  const u = rng.next();
  const o = model.options;
  if (u < o.topicWordShare) return topicWord(model, rng, t);
  if (u < o.topicWordShare + OTHER_TOPIC_WORD_SHARE) return topicWord(model, rng, rng.int(o.topics.length));
  return commonWord(model, rng);
}

function insertAt<T>(rng: Rng, items: T[], item: T): void {
  items.splice(rng.int(items.length + 1), 0, item);
}

/** Anchor text for a link, from the target topic's words, or generic/common words (noise). */
function anchorText(model: WebModel, rng: Rng, target: LinkTarget, pageTopic: number): string {
  const o = model.options;
  if (target.kind === 'page' && target.index === 0 && rng.next() < 0.5)
    return siteTitleOf(model, target.host);
  if (rng.next() < o.anchorNoise) {
    if (rng.next() < 0.5) return rng.pick(model.vocabulary.genericAnchors) as string;
    return Array.from({ length: 1 + rng.int(3) }, () => commonWord(model, rng)).join(' ');
  }
  const t = target.kind === 'page' ? model.topicOf(target.host, target.index) : pageTopic;
  const words = Array.from({ length: 1 + rng.int(4) }, () => topicWord(model, rng, t));
  if (rng.next() < ANCHOR_KEYWORD_SHARE)
    insertAt(rng, words, rng.pick(model.vocabulary.keywords[t] as string[]) as string);
  return words.join(' ');
}

/** href for a link from page (h, i): relative forms for same-host links, absolute otherwise. */
function hrefOf(model: WebModel, rng: Rng, h: number, i: number, target: LinkTarget): string {
  if (target.kind === 'dead-host') return target.url;
  const host = target.host;
  const path = target.kind === 'missing' ? target.path : model.pathOf(host, target.index);
  const absolute = `http://${model.table.names[host]}${path}`;
  if (host !== h) return absolute;
  const u = rng.next();
  const fragment = rng.next() < 0.03 ? '#section' : '';
  if (u < 0.1 || path === '/') return (u < 0.1 ? absolute : path) + fragment;
  if (u < 0.7) return path + fragment;
  const name = path.slice(3); // '/p/12.html' -> '12.html'
  if (i === 0) return `p/${name}${fragment}`;
  return (u < 0.95 ? name : `./${name}`) + fragment;
}

/** The HTML of page (h, i). Deterministic in (seed, h, i). */
export function renderPageHtml(model: WebModel, h: number, i: number): string {
  const o = model.options;
  const rng = model.pageRng(h, i, 'text');
  const linkRng = model.pageRng(h, i, 'anchors');
  const topic = model.topicOf(h, i);
  const keywords = model.vocabulary.keywords;
  const isKeywordPage = rng.next() < o.keywordPageShare;
  const mentionsOther = rng.next() < o.offTopicKeywordShare && o.topics.length > 1;

  const titleWords = Array.from({ length: 2 + rng.int(5) }, () =>
    rng.next() < 0.7 ? topicWord(model, rng, topic) : commonWord(model, rng),
  );
  if (isKeywordPage && rng.next() < 0.6)
    insertAt(rng, titleWords, rng.pick(keywords[topic] as string[]) as string);
  const siteTitle = siteTitleOf(model, h);
  const title = i === 0 ? siteTitle : titleWords.map(capitalize).join(' ');

  const wordCount = logNormalInt(rng, o.meanWordsPerPage, 0.5, 20, 20 * o.meanWordsPerPage);
  const words = Array.from({ length: wordCount }, () => textWord(model, rng, topic));
  if (isKeywordPage) {
    for (const keyword of keywords[topic] as string[]) {
      for (let k = 1 + rng.int(4); k > 0; k--) insertAt(rng, words, keyword);
    }
  }
  if (mentionsOther) {
    const other = (topic + 1 + rng.int(o.topics.length - 1)) % o.topics.length;
    for (let k = 1 + rng.int(2); k > 0; k--)
      insertAt(rng, words, rng.pick(keywords[other] as string[]) as string);
  }

  const links = outLinks(model, h, i).map(
    (target) =>
      `<a href="${escapeHtml(hrefOf(model, linkRng, h, i, target))}">${escapeHtml(anchorText(model, linkRng, target, topic))}</a>`,
  );
  const isHub = model.isHub(h, i);
  const nav = links.splice(0, Math.min(3, links.length));
  const related: string[] = [];
  const inline = new Map<number, string[]>(); // word position -> links placed after it
  for (const link of links) {
    if (isHub || linkRng.next() < 0.3) related.push(link);
    else {
      const at = linkRng.int(words.length);
      inline.set(at, [...(inline.get(at) ?? []), link]);
    }
  }

  const paragraphs: string[] = [];
  let sentence: string[] = [];
  let paragraph: string[] = [];
  let sentenceLength = 6 + rng.int(11);
  let sentencesLeft = 2 + rng.int(4);
  words.forEach((word, k) => {
    sentence.push(sentence.length === 0 ? capitalize(word) : word);
    for (const link of inline.get(k) ?? []) sentence.push(link);
    if (sentence.length >= sentenceLength || k === words.length - 1) {
      paragraph.push(`${sentence.join(' ')}.`);
      sentence = [];
      sentenceLength = 6 + rng.int(11);
      if (--sentencesLeft === 0 || k === words.length - 1) {
        paragraphs.push(`<p>${paragraph.join(' ')}</p>`);
        paragraph = [];
        sentencesLeft = 2 + rng.int(4);
      }
    }
  });

  const description = words.slice(0, 20).join(' ');
  const relatedHtml = related.length
    ? `<section><h2>${isHub ? 'Directory' : 'Related'}</h2>\n<ul>\n${related.map((l) => `<li>${l}</li>`).join('\n')}\n</ul></section>\n`
    : '';
  return (
    `<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">\n` +
    `<title>${escapeHtml(i === 0 ? title : `${title} | ${siteTitle}`)}</title>\n` +
    `<meta name="description" content="${escapeHtml(description)}">\n</head>\n<body>\n` +
    `<header><a href="/">${escapeHtml(siteTitle)}</a>\n<nav>${nav.join(' | ')}</nav></header>\n` +
    `<main>\n<h1>${escapeHtml(title)}</h1>\n${paragraphs.join('\n')}\n${relatedHtml}</main>\n` +
    `<footer><p>${escapeHtml(model.table.names[h] as string)}</p></footer>\n</body></html>\n`
  );
}
