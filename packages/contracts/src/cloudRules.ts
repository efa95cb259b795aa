// The document cloud's bounds, without zod: the page's shell imports them (ADR 0542).

export const CLOUD_NAME_MAX = 240;
/** The product: under 10 GB the page offers to expand; from 10 to 100 GB it links to purchase. */
export const CLOUD_EXPAND_BELOW_GB = 10;
export const CLOUD_PURCHASE_UP_TO_GB = 100;
