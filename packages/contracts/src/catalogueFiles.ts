// The error catalogue in each site language, read from catalogue/<locale>.json: for the server,
// which words its refusals in the caller's language. Node only (the page loads the same files
// through its bundler), so it is not exported from the package's index.
import fs from 'node:fs';
import type { CatalogueTexts } from './errors.js';

/** The catalogue's messages in `locale` ("de-de"); none for English, which errorMessages holds. */
export function catalogueTexts(locale: string): CatalogueTexts {
  const file = new URL(`./catalogue/${locale}.json`, import.meta.url);
  return fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as CatalogueTexts) : {};
}
