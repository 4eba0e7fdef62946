/**
 * Report templates: the fixed prose of a benchmark report lives in a Markdown file under
 * `templates/` with `{{name}}` placeholders, and the report writer fills in the figures and
 * tables. A template is read byte for byte (its final newline is part of the report).
 */
import { readFileSync } from 'node:fs';

/**
 * The templates folder, found from the lab's folder: this module is three folders below it both
 * as a source (lab/src/bench/report/) and as built by `npm run bench` (lab/dist/bench/report/),
 * and tsc copies no Markdown into lab/dist/. The harness runs in the repository.
 */
const TEMPLATES_DIR = new URL('../../../src/bench/report/templates/', import.meta.url);

const cache = new Map<string, string>();

/** The text of `templates/NAME` (read once). */
export function readTemplate(name: string): string {
  let text = cache.get(name);
  if (text === undefined) {
    text = readFileSync(new URL(name, TEMPLATES_DIR), 'utf8');
    cache.set(name, text);
  }
  return text;
}

const PLACEHOLDER = /\{\{(\w+)\}\}/g;

/**
 * `templates/NAME` with every `{{key}}` replaced by `values[key]`.
 * @throws Error naming the template and the key when a placeholder has no value or a value no
 *   placeholder (a template and its writer out of step).
 */
export function fillTemplate(name: string, values: Readonly<Record<string, string | number>>): string {
  const template = readTemplate(name);
  const used = new Set<string>();
  const text = template.replace(PLACEHOLDER, (_whole, key: string) => {
    const value = values[key];
    if (value === undefined) throw new Error(`report template ${name}: no value for {{${key}}}`);
    used.add(key);
    return String(value);
  });
  const unused = Object.keys(values).filter((key) => !used.has(key));
  if (unused.length > 0)
    throw new Error(
      `report template ${name}: no placeholder for ${unused.map((k) => `{{${k}}}`).join(', ')}`,
    );
  return text;
}
