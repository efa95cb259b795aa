// The sign tool's bounds and messages, without zod: the engines' child programs import them (with errors.ts).

/** Saved signatures an account keeps; saving one more is refused (4211). */
export const MAX_SAVED_SIGNATURES = 20;
/** Bytes of one signature image as sent (PNG or SVG), before it is decoded. */
export const MAX_SIGNATURE_BYTES = 512 * 1024;
/** Width or height of a signature image, in pixels (an SVG is rendered to a PNG this size at most). */
export const MAX_SIGNATURE_SIDE_PX = 2000;
/** Placements in one signing task (marks over all pages). */
export const MAX_SIGN_PLACEMENTS = 200;
/** Different images in one signing task (a placement repeated on many pages is one). */
export const MAX_SIGN_IMAGES = 10;
/** Bytes of an uploaded PKCS#12 certificate file. */
export const MAX_P12_BYTES = 64 * 1024;

export const signMessages = {
  tooManySaved: `You can keep up to ${MAX_SAVED_SIGNATURES} saved signatures. Delete one to save another.`,
  imageTooLarge: `The signature image is too large (at most ${MAX_SIGNATURE_BYTES / 1024} KB and ${MAX_SIGNATURE_SIDE_PX} × ${MAX_SIGNATURE_SIDE_PX} pixels).`,
  notAnImage: 'The signature must be a PNG or SVG image.',
  tooManyImages: `At most ${MAX_SIGN_IMAGES} different images can be placed at once.`,
  noCertificate: 'No certificate is available for a digital signature: upload a PKCS#12 (.p12 or .pfx) file.',
  badCertificate: 'The certificate file or its password is not valid.',
  timestampUnavailable: 'The timestamp authority could not be reached. Please try again later.',
  timestampInvalid: 'The timestamp authority did not return a valid timestamp. Please try again later.',
  noTimestampAuthority: 'This server has no timestamp authority: sign without a trusted timestamp.',
} as const;
