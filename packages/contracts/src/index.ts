export * from './conversions.js';
export * from './errors.js';
export * from './imageTools.js';
export * from './ocr.js';
export * from './pageRanges.js';
export * from './textSearch.js';
export * from './tools.js';
export * from './api.js';
