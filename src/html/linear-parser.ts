/**
 * htmlparser2's tree-repair rules on its own Tokenizer, in time linear in the page size.
 *
 * htmlparser2's `Parser` keeps its open elements in an array with the innermost first and
 * opens each element with `stack.unshift` (and `foreignContext.unshift` for svg/math), and a
 * close tag searches the whole stack with `indexOf` even when nothing matches: every event
 * costs O(depth), so 200,000 nested `<div>` took 68 s and 1,000,000 froze a crawl. This class
 * is a port of `Parser` (htmlparser2 10.1, MIT, `dist/esm/Parser.js`) restricted to what
 * `parseHtml` uses (HTML mode, entities decoded, lowercase names, no CDATA, no comment or
 * processing-instruction events) with the same events in the same order, but:
 * - the stacks grow at the end (push/pop, O(1));
 * - a count of open elements by name answers "is any `</x>` open?" at once, so a stray close
 *   tag costs O(1), and a matching one costs what it pops (each element is popped once);
 * - slices are read from the one page string (chunks written are slices of it), not from a
 *   list of buffers;
 * - optionally only the attributes a caller reads are stored (a tag may carry a million).
 * `linear-parser.test.ts` checks event-for-event equality with `Parser` on real and random
 * markup.
 */
import { Tokenizer, type TokenizerCallbacks } from 'htmlparser2';

/** The events `parseHtml` listens to, with htmlparser2's `Handler` signatures. */
export interface LinearParserHandler {
  ontext(data: string): void;
  onopentag(name: string, attribs: Record<string, string>, isImplied: boolean): void;
  onclosetag(name: string, isImplied: boolean): void;
  onend(): void;
}

// The tables below are htmlparser2's own (Parser.js), unchanged.
const formTags = new Set(['input', 'option', 'optgroup', 'select', 'button', 'datalist', 'textarea']);
const pTag = new Set(['p']);
const tableSectionTags = new Set(['thead', 'tbody']);
const ddtTags = new Set(['dd', 'dt']);
const rtpTags = new Set(['rt', 'rp']);
const openImpliesClose = new Map<string, ReadonlySet<string>>([
  ['tr', new Set(['tr', 'th', 'td'])],
  ['th', new Set(['th'])],
  ['td', new Set(['thead', 'th', 'td'])],
  ['body', new Set(['head', 'link', 'script'])],
  ['li', new Set(['li'])],
  ...['p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6'].map((t): [string, ReadonlySet<string>] => [t, pTag]),
  ...['select', 'input', 'output', 'button', 'datalist', 'textarea'].map(
    (t): [string, ReadonlySet<string>] => [t, formTags],
  ),
  ['option', new Set(['option'])],
  ['optgroup', new Set(['optgroup', 'option'])],
  ['dd', ddtTags],
  ['dt', ddtTags],
  ...(
    'address article aside blockquote details div dl fieldset figcaption figure footer form ' +
    'header hr main nav ol pre section table ul'
  )
    .split(' ')
    .map((t): [string, ReadonlySet<string>] => [t, pTag]),
  ['rt', rtpTags],
  ['rp', rtpTags],
  ['tbody', tableSectionTags],
  ['tfoot', tableSectionTags],
]);
const voidElements = new Set(
  'area base basefont br col command embed frame hr img input isindex keygen link meta param source track wbr'.split(
    ' ',
  ),
);
const foreignContextElements = new Set(['math', 'svg']);
const htmlIntegrationElements = new Set([
  'mi',
  'mo',
  'mn',
  'ms',
  'mtext',
  'annotation-xml',
  'foreignobject',
  'desc',
  'title',
]);

/**
 * A push parser: `write` slices of one page string in order (`html.slice(a, b)`, then
 * `html.slice(b, c)` ...), then `end()`. The handler sees exactly the events htmlparser2's
 * `Parser` would give for `new Parser(handler, { decodeEntities: true }).end(html)`.
 */
export class LinearParser implements TokenizerCallbacks {
  private readonly tokenizer: Tokenizer;
  /** Open elements, innermost last. */
  private readonly stack: string[] = [];
  /** How many elements of each name are on `stack`. */
  private readonly openCount = new Map<string, number>();
  /** True while inside svg/math (self-closing tags are honoured), innermost last. */
  private readonly foreignContext: boolean[] = [false];
  private tagname = '';
  private attribname = '';
  private attribvalue = '';
  private isAttribWanted = true;
  private attribs: Record<string, string> | null = null;

  /**
   * @param html the whole page; chunks given to `write` must be consecutive slices of it
   * @param wantedAttributes if given, only these attribute names (lowercase) are stored
   */
  constructor(
    private readonly handler: LinearParserHandler,
    private readonly html: string,
    private readonly wantedAttributes?: ReadonlySet<string>,
  ) {
    this.tokenizer = new Tokenizer({ decodeEntities: true }, this);
  }

  /** Parses the next slice of the page. */
  write(chunk: string): void {
    this.tokenizer.write(chunk);
  }

  /** Ends the page: closes every element still open, then `onend`. */
  end(): void {
    this.tokenizer.end();
  }

  /** @internal */
  ontext(start: number, endIndex: number): void {
    this.handler.ontext(this.html.slice(start, endIndex));
  }

  /** @internal */
  ontextentity(cp: number): void {
    this.handler.ontext(String.fromCodePoint(cp));
  }

  /** @internal */
  onopentagname(start: number, endIndex: number): void {
    this.emitOpenTag(this.html.slice(start, endIndex).toLowerCase());
  }

  private emitOpenTag(name: string): void {
    this.tagname = name;
    const impliesClose = openImpliesClose.get(name);
    if (impliesClose) {
      while (this.stack.length > 0 && impliesClose.has(this.stack[this.stack.length - 1] as string)) {
        this.handler.onclosetag(this.pop(), true);
      }
    }
    if (!voidElements.has(name)) {
      this.stack.push(name);
      this.openCount.set(name, (this.openCount.get(name) ?? 0) + 1);
      if (foreignContextElements.has(name)) this.foreignContext.push(true);
      else if (htmlIntegrationElements.has(name)) this.foreignContext.push(false);
    }
    this.attribs = {};
  }

  private pop(): string {
    const name = this.stack.pop() as string;
    this.openCount.set(name, (this.openCount.get(name) as number) - 1);
    return name;
  }

  private endOpenTag(isImplied: boolean): void {
    if (this.attribs) {
      this.handler.onopentag(this.tagname, this.attribs, isImplied);
      this.attribs = null;
    }
    if (voidElements.has(this.tagname)) this.handler.onclosetag(this.tagname, true);
    this.tagname = '';
  }

  /** @internal */
  onopentagend(): void {
    this.endOpenTag(false);
  }

  /** @internal */
  onclosetag(start: number, endIndex: number): void {
    const name = this.html.slice(start, endIndex).toLowerCase();
    // As htmlparser2: any </svg>, </title> ... leaves the innermost context, matched or not.
    if (foreignContextElements.has(name) || htmlIntegrationElements.has(name)) this.foreignContext.pop();
    if (!voidElements.has(name)) {
      if ((this.openCount.get(name) ?? 0) > 0) {
        // Close everything above the innermost open `name`, then it.
        let closed = this.pop();
        while (closed !== name) {
          this.handler.onclosetag(closed, true);
          closed = this.pop();
        }
        this.handler.onclosetag(closed, false);
      } else if (name === 'p') {
        // Implicit open before close
        this.emitOpenTag('p');
        this.closeCurrentTag(true);
      }
    } else if (name === 'br') {
      this.handler.onopentag('br', {}, true);
      this.handler.onclosetag('br', false);
    }
  }

  /** @internal */
  onselfclosingtag(): void {
    if (this.foreignContext[this.foreignContext.length - 1]) this.closeCurrentTag(false);
    else this.onopentagend();
  }

  private closeCurrentTag(isOpenImplied: boolean): void {
    const name = this.tagname;
    this.endOpenTag(isOpenImplied);
    // Self-closing tags will be on the top of the stack
    if (this.stack[this.stack.length - 1] === name) {
      // If the opening tag isn't implied, the closing tag has to be implied.
      this.handler.onclosetag(name, !isOpenImplied);
      this.pop();
    }
  }

  /** @internal */
  onattribname(start: number, endIndex: number): void {
    this.attribname = this.html.slice(start, endIndex).toLowerCase();
    this.isAttribWanted = this.wantedAttributes === undefined || this.wantedAttributes.has(this.attribname);
  }

  /** @internal */
  onattribdata(start: number, endIndex: number): void {
    if (this.isAttribWanted) this.attribvalue += this.html.slice(start, endIndex);
  }

  /** @internal */
  onattribentity(cp: number): void {
    if (this.isAttribWanted) this.attribvalue += String.fromCodePoint(cp);
  }

  /** @internal */
  onattribend(): void {
    if (this.isAttribWanted && this.attribs && !Object.hasOwn(this.attribs, this.attribname)) {
      this.attribs[this.attribname] = this.attribvalue;
    }
    this.attribvalue = '';
  }

  /** @internal Declarations, comments, CDATA and processing instructions carry nothing we read. */
  ondeclaration(): void {}
  /** @internal */
  onprocessinginstruction(): void {}
  /** @internal */
  oncomment(): void {}
  /** @internal */
  oncdata(): void {}

  /** @internal */
  onend(): void {
    // Every element still open gets its close event, innermost first.
    for (let i = this.stack.length - 1; i >= 0; i--) this.handler.onclosetag(this.stack[i] as string, true);
    this.stack.length = 0;
    this.openCount.clear();
    this.handler.onend();
  }
}
