// Refusals raised in more than one layer, worded in the caller's language (words.ts).
import { ErrorCode } from '@quire/contracts';
import { refusal } from './words.js';

/** 4013 for a document over `maxPages`, opening the page-limit dialog whatever the plan. */
export const tooManyPagesError = (maxPages: number) =>
  refusal(ErrorCode.TooManyPages, 'error.limit.pages', { max: maxPages }, { upgrade: 'normalPageLimit', limit: maxPages });
