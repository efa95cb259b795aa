// Which English texts come with every page and which with the first page that needs them
// (ADR 0544): the web build splits en-us.json by this rule (vite.config.ts). Every route fetched
// lazily loads the rest before it shows, as does any other language (English is its fallback).

/** Topics the shell, the home, landing, pricing and template pages and the account's dialogs show. */
const SHELL_TOPICS = new Set([
  'account',
  'activity',
  'appHome',
  'banner',
  'bookmark',
  'error',
  'footer',
  'home',
  'landing',
  'messages',
  'nav',
  'pricing',
  'search',
  'shareDocument',
  'survey',
  'templates',
  'tools',
  'upload',
]);

/** Texts of other topics the shell names: the menus' pages, a plan's name, the home's cloud summary. */
const SHELL_KEYS = new Set([
  'admin.planPremiumAi',
  'aiDetector.description',
  'aiDetector.title',
  'aiProofread.description',
  'aiProofread.title',
  'aiRead.description',
  'aiRead.title',
  'aiTranslator.description',
  'aiTranslator.title',
  'chatPdf.description',
  'chatPdf.title',
  'cloud.capacityUsed',
  'cloud.noRecent',
  'cloud.open',
  'cloud.recentFiles',
  'cloud.storage',
  'editor.description',
  'editor.titleAnnotate',
  'editor.titleEdit',
]);

/** Whether an English text comes with every page. */
export const isShellText = (key: string): boolean => SHELL_TOPICS.has(key.slice(0, key.indexOf('.'))) || SHELL_KEYS.has(key);
