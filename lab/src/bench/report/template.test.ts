import { describe, expect, it } from 'vitest';
import { fillTemplate, readTemplate } from './template.js';

describe('report templates', () => {
  it('names the template and the placeholder that has no value, and the value that has no placeholder', () => {
    const keys = [...readTemplate('summary-report.md').matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]!);
    const values = Object.fromEntries(keys.map((k) => [k, `<${k}>`]));
    expect(fillTemplate('summary-report.md', values)).toContain('# Crawl benchmark summary: <topicCount>');
    const { met: _met, ...withoutMet } = values;
    expect(() => fillTemplate('summary-report.md', withoutMet)).toThrow(
      'report template summary-report.md: no value for {{met}}',
    );
    expect(() => fillTemplate('summary-report.md', { ...values, extra: 1 })).toThrow(
      'report template summary-report.md: no placeholder for {{extra}}',
    );
  });
});
