/**
 * The `RelevanceModel` interface: the reward of the MDP (a page classifier's verdict) and the
 * anchor feature of the state-action vector (the same classifier on a link's text), behind one
 * batch interface that every classifier of tres implements.
 */

/** A fetched page as the crawl loop sees it. */
export interface PageInput {
  /** Page URL (its words feed the "keyword in URL" input); '' if unknown. */
  url: string;
  /** `<title>` text; '' if none. */
  title: string;
  /** Visible text. */
  text: string;
}

/** A link as the crawl loop sees it: the reference code's "anchor" is link text + URL words. */
export interface AnchorInput {
  /** Absolute link URL. */
  url: string;
  /** Visible anchor text; '' if none. */
  anchorText: string;
}

/** Names of the classifiers (the command line's `--model`). */
export type ModelName = 'kwbilstm' | 'bilstm' | 'svm' | 'nb' | 'fast';

/** Every model name, in the order of reports. */
export const MODEL_NAMES: readonly ModelName[] = ['kwbilstm', 'bilstm', 'svm', 'nb', 'fast'];

/** A relevance classifier: batch scoring of pages and anchors, saved to and loaded from a folder. */
export interface RelevanceModel {
  /** Which classifier this is. */
  readonly name: ModelName;
  /** P(relevant) in [0, 1] for each page, in input order. */
  scorePages(pages: readonly PageInput[]): Promise<Float32Array>;
  /** P(relevant) in [0, 1] for each link, from its anchor text and URL words, in input order. */
  scoreAnchors(anchors: readonly AnchorInput[]): Promise<Float32Array>;
  /**
   * Writes the model to folder `dir` (created if missing; files replaced atomically). A model
   * loaded with `loadModel(dir)` scores exactly as this one.
   */
  save(dir: string): Promise<void>;
  /** Frees native memory (tensors); the model cannot score afterwards. */
  dispose(): void;
}

/** A labelled training document. */
export interface LabeledDocument extends PageInput {
  /** 1 relevant, 0 irrelevant. */
  label: 0 | 1;
  /** Where it came from (file path, or `file:line` for JSON lines), for messages. */
  source: string;
}

/** What a model scores: the tokens of a page or an anchor, and the URL they belong to. */
export interface TextExample {
  /** Tokens from the shared tokenizer (stopwords removed). */
  tokens: string[];
  url: string;
}

/** Models of this room also score pre-tokenised examples (cross-validation tokenises once). */
export interface ExampleScorer {
  /** P(relevant) of each example, in input order. */
  scoreExamples(examples: readonly TextExample[]): Float32Array | Promise<Float32Array>;
}
