/** Renders docs/strategy-settings.md from the strategy registry. */
import { strategySettingsHelp } from '../src/strategies/index.js';

/** The whole of docs/strategy-settings.md. */
export function renderStrategiesDoc(): string {
  return [
    '# Strategy settings',
    '',
    '<!-- Generated from the strategy entries by `npx vite-node scripts/strategies-doc.ts`; do not edit. -->',
    '',
    'Every strategy and its settings (what they are: [strategies.md](strategies.md)). Set them by field name:',
    '`--strategy tres:gamma=0.5,warmupPolicy=random,isDoubleQ=false`. Values are numbers, `true`/`false`',
    'and words; `false` turns a feature off. The strategy keeps the whole spec as its name, so reports',
    'tell variants apart. Each strategy folder declares its entry (`src/strategies/*/...-entry.ts` or',
    '`...-entries.ts`: name, description, settings schema, factory) and `src/strategies/registry.ts`',
    'lists them. The old keys of the commands in results/ still work as aliases (listed per strategy).',
    '',
    '```text',
    strategySettingsHelp(),
    '```',
    '',
  ].join('\n');
}
