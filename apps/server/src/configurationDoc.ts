// docs/configuration.md, generated from the settings' table (settings.ts): `npm run docs:config` writes it, and
// config.test.ts fails while the committed file differs from what this answers.
import { type Setting, settings } from './settings.js';

export const CONFIGURATION_DOC = 'docs/configuration.md';

const cell = (text: string) => text.replaceAll('|', '\\|');

function row(name: string, setting: Setting<unknown>): string {
  const variable = setting.secret ? `\`${name}_FILE\` / \`${name}\`` : `\`${name}\``;
  return `| ${variable} | ${cell(setting.type)} | ${cell(setting.shownDefault)} | ${cell(setting.meaning)} |`;
}

/** The text of docs/configuration.md. */
export function configurationDoc(): string {
  return [
    '# Configuration',
    '',
    '<!-- Generated from apps/server/src/settings.ts by `npm run docs:config`: edit that table, not this file. -->',
    '',
    'Quire reads its settings from the environment when it starts (`npm start`, `npm run quire`). An unset or',
    'empty variable takes its default. A value that is not what the variable takes stops the start: the',
    'message names every such variable and what is wrong with it, all at once. A secret is read from the',
    'file its `…_FILE` variable names (a mounted secret) in preference to the variable itself.',
    '',
    '| variable | type | default | meaning |',
    '| --- | --- | --- | --- |',
    ...Object.entries(settings).map(([name, setting]) => row(name, setting as Setting<unknown>)),
    '',
  ].join('\n');
}
