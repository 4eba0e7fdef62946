/**
 * What every classifier sees: the tokens of a page (title + text) or of an anchor (link text +
 * URL words) from the shared tokenizer, and the keyword inputs of KwBiLSTM (arXiv section 3.4):
 * - the exhaustive keyword vector EK, a "thermometer" of width SHORTCUT1:
 *   [count == 0, count >= 1, ..., count >= SHORTCUT1 - 1] (reference code);
 * - the limited keyword vector LK: [keyword density, any keyphrase found, keyword in URL].
 */
import { anchorTokens, KeywordSet, type KeywordSetJson, pageTokens } from '../text/index.js';
import type { AnchorInput, PageInput, TextExample } from './types.js';

/** The topic knowledge the keyword-aware models are trained with. */
export interface TopicKeywords {
  /** Expanded keywords and the keyphrases. */
  set: KeywordSet;
  /** Thermometer width (ceil of mean keyword occurrences per relevant document), >= 1. */
  shortcut1: number;
}

/** Serialised {@link TopicKeywords}. */
export interface TopicKeywordsJson extends KeywordSetJson {
  shortcut1: number;
}

/** JSON form of topic keywords. */
export function topicToJson(topic: TopicKeywords): TopicKeywordsJson {
  return { ...topic.set.toJSON(), shortcut1: topic.shortcut1 };
}

/** Topic keywords from their JSON form. */
export function topicFromJson(json: TopicKeywordsJson): TopicKeywords {
  return { set: KeywordSet.fromJSON(json), shortcut1: json.shortcut1 };
}

/** Examples of pages: title and text tokens, page URL. */
export function pageExamples(pages: readonly PageInput[]): TextExample[] {
  return pages.map((p) => ({ tokens: pageTokens(p.title, p.text), url: p.url }));
}

/** Examples of anchors: anchor text then URL tokens, link URL. */
export function anchorExamples(anchors: readonly AnchorInput[]): TextExample[] {
  return anchors.map((a) => ({ tokens: anchorTokens(a.anchorText, a.url), url: a.url }));
}

/** Length of EK + LK for a thermometer of width `shortcut1`. */
export function keywordFeatureSize(shortcut1: number): number {
  return shortcut1 + 3;
}

/**
 * Writes EK (width shortcut1) then LK (3) of `example` into `out` at `offset`.
 * Density is keyword occurrences per token (tokens after stopword removal).
 */
export function writeKeywordFeatures(
  example: TextExample,
  topic: TopicKeywords,
  out: Float32Array,
  offset: number,
): void {
  const count = topic.set.count(example.tokens);
  out[offset] = count === 0 ? 1 : 0;
  for (let i = 1; i < topic.shortcut1; i++) out[offset + i] = count >= i ? 1 : 0;
  const lk = offset + topic.shortcut1;
  out[lk] = example.tokens.length === 0 ? 0 : count / example.tokens.length;
  out[lk + 1] = topic.set.hasKeyphrase(example.tokens) ? 1 : 0;
  out[lk + 2] = example.url.length > 0 && topic.set.isInUrl(example.url) ? 1 : 0;
}
