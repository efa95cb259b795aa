import type { LimitRefusal } from './limits.js';
import { signMessages } from './signLimits.js';

// The error catalogue. Codes marked "Quire" are ours where the product names
// a condition but gives no number; they are documented in docs/errors.md.
export const ErrorCode = {
  Ok: 0,
  Generic: 500,
  ServiceDown: 3999,
  NotLogin: 3001,
  SignInFailed: 3002, // Quire: an unknown address or a wrong password, answered alike
  EmailNotVerified: 3003, // Quire: the right password for an address not yet confirmed
  LinkExpired: 3004, // Quire: a mailed link's token is unknown, used or past its time
  EmailInUse: 3005, // Quire: another account has the address
  SsoUnavailable: 3006, // Quire: single sign-on is not configured, or its provider cannot be reached
  SsoFailed: 3007, // Quire: a single sign-on that cannot be trusted (state, ID token) or that the provider refused
  SsoCancelled: 3008, // Quire: the user declined at the provider
  SsoEmailUnconfirmed: 3009, // Quire: the provider did not vouch for an email address
  SessionNeeded: 3012, // Quire: an API key cannot manage the account (passwords, address, deletion, keys)
  NotPermitted: 3015, // Quire: a signed-in account that is not an operator called an operator's call
  SessionEnded: 1408,
  InvalidParams: 3100, // Quire: a request failed validation; msg carries the exact message to show
  WrongType: 3102,
  NotPdf: 3103, // Quire: a PDF tool was given something that is not a PDF
  UnsupportedType: 3104, // Quire: a file of a type Quire cannot read, or a conversion cannot take
  Unreadable: 3105, // Quire: a document or image its engine cannot open (damaged, or a variant it does not know)
  Empty: 3106, // Quire: an upload with no bytes
  Encrypted: 3122,
  WrongPassword: 3123, // Quire
  Damaged: 3124, // Quire
  TaskFailed: 3125,
  NotProtected: 3126, // Quire: Unlock was given a file that has no password
  Cancelled: 3127, // Quire: the task was cancelled by its owner (document/cancel-task)
  Busy: 3500,
  NoData: 2405,
  TooLarge: 4012,
  TooManyPages: 4013, // Quire: over the page limit of the plan
  TooManyFiles: 4014, // Quire: more files in one task than the plan takes
  OcrNotInPlan: 4015, // Quire: OCR asked on a plan without it
  DailyTaskLimit: 4016, // Quire: an anonymous visitor's tasks of the day are used up
  HoldingLimit: 4017, // Quire: a visitor, account or address holds its cap of uploads and results until retention deletes them
  NeedOcr: 4018, // Quire: the spec's string code NEED_OCR, as a number: OCR asked of a server without an OCR engine
  CloudNameExists: 4101, // Quire: a cloud file or folder of this name is already in the folder
  FolderExists: 4102, // Quire: a folder of this name is already in the folder
  EditTargetGone: 4201, // Quire: an editor operation names a run, image or annotation the page does not have
  EditPageMissing: 4202, // Quire: an editor operation names a page the document does not have
  EditImageUnreadable: 4203, // Quire: an image added in the editor is not a PNG or JPEG it can read
  EditFieldUnknown: 4204, // Quire: a form field to fill that the document does not have, or a value it cannot take
  EditTooMuch: 4205, // Quire: a save past the editor's bounds (images' bytes, ink points, fields)
  EditFontMissing: 4206, // Quire: the editor asks for a font family's file that this server has not installed
  CloudFull: 41003,
  TooManySignatures: 4211, // Quire: an account's saved signatures are at their limit
  BadSignatureImage: 4212, // Quire: a signature image that is not a PNG or SVG, or too large
  NoCertificate: 4213, // Quire: a digital signature without a certificate (none uploaded, none configured)
  BadCertificate: 4214, // Quire: a PKCS#12 that cannot be read with its password, or without a key and certificate
  TimestampUnavailable: 4215, // Quire: the timestamp authority cannot be reached, fails, or does not answer in time
  TimestampInvalid: 4216, // Quire: the timestamp authority refused, or its reply is too large or does not match the request
  NoTimestampAuthority: 4217, // Quire: a trusted timestamp asked of a server without a timestamp authority
  ShareLimit: 3023,
  NotEnoughTokens: 11003,
  TextTooShort: 11005,
  QuestionLimit: 11007,
  DetectorCharsLimit: 11009,
  DetectorRequestLimit: 11010,
  DetectorFileLimit: 11011,
  AnalysisFailed: 11012,
  StreamExpired: 11013,
  AiUnavailable: 11020, // Quire: the operator's model or endpoint for this AI tool cannot be reached or loaded
  LanguageUnavailable: 11021, // Quire: no installed dictionary or translation pair serves this language
  ShareExpired: 11016,
  NeedPdfFirst: 90001,
  UploadFailed: 90002,
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

export const errorMessages: Record<ErrorCode, string> = {
  [ErrorCode.Ok]: 'success',
  [ErrorCode.Generic]: 'Oops! Something went wrong. Please try again later.',
  [ErrorCode.ServiceDown]: 'Oops! Something went wrong. Please try again later.',
  [ErrorCode.NotLogin]: 'Please log in to continue.',
  [ErrorCode.SignInFailed]: 'Incorrect email or password.',
  [ErrorCode.EmailNotVerified]: 'Please confirm your email address first: we have sent you a link.',
  [ErrorCode.LinkExpired]: 'This link has expired or has already been used.',
  [ErrorCode.EmailInUse]: 'Email already in use.',
  [ErrorCode.SsoUnavailable]: 'Single sign-on is not available right now. Please try again later.',
  [ErrorCode.SsoFailed]: 'Single sign-on failed. Please try again.',
  [ErrorCode.SsoCancelled]: 'Sign-in was cancelled at the provider.',
  [ErrorCode.SsoEmailUnconfirmed]: 'Your sign-in provider has not confirmed your email address.',
  [ErrorCode.SessionNeeded]: 'An API key cannot do this. Please sign in with your password.',
  [ErrorCode.NotPermitted]: 'You do not have permission to do this.',
  [ErrorCode.SessionEnded]: 'Your session has ended. Please log in again.',
  [ErrorCode.InvalidParams]: 'Invalid parameters.',
  [ErrorCode.WrongType]: 'The file types allowed for uploads are JPG, JPEG, PNG, BMP, and GIF.',
  [ErrorCode.NotPdf]: 'The file type is not supported. Please upload a PDF file.',
  [ErrorCode.UnsupportedType]: 'This file type is not supported.',
  [ErrorCode.Unreadable]: 'The file is damaged or in a format that cannot be read.',
  [ErrorCode.Empty]: 'The file is empty.',
  [ErrorCode.Encrypted]: 'This file is password protected. Please enter the password.',
  [ErrorCode.WrongPassword]: 'Incorrect password. Please try again.',
  [ErrorCode.Damaged]: 'The PDF file is corrupted and cannot be processed.',
  [ErrorCode.TaskFailed]: 'Task failed. Please try again later.',
  [ErrorCode.NotProtected]: 'not password protected, no need to unlock',
  [ErrorCode.Cancelled]: 'The task was cancelled.',
  [ErrorCode.Busy]: 'The service is busy. Please try again later.',
  [ErrorCode.NoData]: 'No data found.',
  [ErrorCode.TooLarge]: 'File size exceeds the limit.',
  [ErrorCode.TooManyPages]: 'The number of pages exceeds the limit.',
  [ErrorCode.TooManyFiles]: 'The number of files exceeds the limit.',
  [ErrorCode.OcrNotInPlan]: 'OCR is not included in your plan. Please upgrade to use it.',
  [ErrorCode.DailyTaskLimit]: 'Anonymous visitors can run 1 task a day. Sign in to continue.',
  [ErrorCode.HoldingLimit]: 'Your files take up all the space allowed. Please try again once older ones have been deleted.',
  [ErrorCode.NeedOcr]: 'OCR files are temporarily not supported',
  [ErrorCode.CloudNameExists]: 'The name already exists.',
  [ErrorCode.FolderExists]: 'The folder already exists',
  [ErrorCode.EditTargetGone]: 'The text or object to edit is no longer on the page. Please reload the document.',
  [ErrorCode.EditPageMissing]: 'The document has no such page.',
  [ErrorCode.EditImageUnreadable]: 'The image could not be read. Please use a PNG or JPEG image.',
  [ErrorCode.EditFieldUnknown]: 'The form has no such field, or the field cannot take this value.',
  [ErrorCode.EditTooMuch]: 'Too many changes to save at once. Please save part of them first.',
  [ErrorCode.EditFontMissing]: 'This font is not installed on the server.',
  [ErrorCode.CloudFull]: 'File size exceeded. Please upgrade permissions.',
  [ErrorCode.TooManySignatures]: signMessages.tooManySaved,
  [ErrorCode.BadSignatureImage]: signMessages.notAnImage,
  [ErrorCode.NoCertificate]: signMessages.noCertificate,
  [ErrorCode.BadCertificate]: signMessages.badCertificate,
  [ErrorCode.TimestampUnavailable]: signMessages.timestampUnavailable,
  [ErrorCode.TimestampInvalid]: signMessages.timestampInvalid,
  [ErrorCode.NoTimestampAuthority]: signMessages.noTimestampAuthority,
  [ErrorCode.ShareLimit]: "You have reached today's sharing limit. Please try again after 24 hours.",
  [ErrorCode.NotEnoughTokens]: 'Sorry, not enough tokens.',
  [ErrorCode.TextTooShort]: 'Please enter at least 250 characters.',
  [ErrorCode.QuestionLimit]: 'You have used all your questions for this period.',
  [ErrorCode.DetectorCharsLimit]: 'Not enough characters left for the AI detector.',
  [ErrorCode.DetectorRequestLimit]: 'This text is longer than one check can take. Please shorten it.',
  [ErrorCode.DetectorFileLimit]: 'This file has more pages than the AI detector takes on your plan.',
  [ErrorCode.AnalysisFailed]: 'The document could not be analysed. Please try again later.',
  [ErrorCode.StreamExpired]: 'This answer has expired. Please ask again.',
  [ErrorCode.AiUnavailable]: 'The AI service is not available right now. Please try again later.',
  [ErrorCode.LanguageUnavailable]: 'This language is not available on this server.',
  [ErrorCode.ShareExpired]: 'The shared file has expired.',
  [ErrorCode.NeedPdfFirst]: 'Please upload a PDF first.',
  [ErrorCode.UploadFailed]: 'Upload failed. Please try again later.',
};

/**
 * The HTTP status each code is answered with. A refusal of the caller's request (bad input, a
 * limit, a quota, a missing permission) is 4xx; only a fault on the server's side (ours, or a
 * service it depends on) is 5xx, so that monitoring counts only those.
 */
export const errorHttpStatus: Record<ErrorCode, number> = {
  [ErrorCode.Ok]: 200,
  [ErrorCode.Generic]: 500,
  [ErrorCode.ServiceDown]: 503,
  [ErrorCode.NotLogin]: 401,
  [ErrorCode.SignInFailed]: 401,
  [ErrorCode.EmailNotVerified]: 403,
  [ErrorCode.LinkExpired]: 410,
  [ErrorCode.EmailInUse]: 409,
  [ErrorCode.SsoUnavailable]: 503,
  [ErrorCode.SsoFailed]: 401,
  [ErrorCode.SsoCancelled]: 401,
  [ErrorCode.SsoEmailUnconfirmed]: 403,
  [ErrorCode.SessionNeeded]: 403,
  [ErrorCode.NotPermitted]: 403,
  [ErrorCode.SessionEnded]: 401,
  [ErrorCode.InvalidParams]: 400,
  [ErrorCode.WrongType]: 415,
  [ErrorCode.NotPdf]: 415,
  [ErrorCode.UnsupportedType]: 415,
  [ErrorCode.Unreadable]: 422,
  [ErrorCode.Empty]: 400,
  [ErrorCode.Encrypted]: 403,
  [ErrorCode.WrongPassword]: 403,
  [ErrorCode.Damaged]: 422,
  [ErrorCode.TaskFailed]: 500,
  [ErrorCode.NotProtected]: 422,
  [ErrorCode.Cancelled]: 409,
  [ErrorCode.Busy]: 503,
  [ErrorCode.NoData]: 404,
  [ErrorCode.TooLarge]: 413,
  [ErrorCode.TooManyPages]: 413,
  [ErrorCode.TooManyFiles]: 413,
  [ErrorCode.OcrNotInPlan]: 403,
  [ErrorCode.DailyTaskLimit]: 429,
  [ErrorCode.HoldingLimit]: 413,
  // Asked of a server without the engine, as 4217 is: the request cannot be served here.
  [ErrorCode.NeedOcr]: 422,
  [ErrorCode.CloudNameExists]: 409,
  [ErrorCode.FolderExists]: 409,
  [ErrorCode.EditTargetGone]: 409,
  [ErrorCode.EditPageMissing]: 422,
  [ErrorCode.EditImageUnreadable]: 422,
  [ErrorCode.EditFieldUnknown]: 422,
  [ErrorCode.EditTooMuch]: 413,
  [ErrorCode.EditFontMissing]: 422,
  // A quota an upgrade lifts.
  [ErrorCode.CloudFull]: 402,
  [ErrorCode.TooManySignatures]: 403,
  [ErrorCode.BadSignatureImage]: 422,
  [ErrorCode.NoCertificate]: 422,
  [ErrorCode.BadCertificate]: 422,
  // The operator's timestamp authority failed: a service the server depends on.
  [ErrorCode.TimestampUnavailable]: 502,
  [ErrorCode.TimestampInvalid]: 502,
  [ErrorCode.NoTimestampAuthority]: 422,
  [ErrorCode.ShareLimit]: 403,
  [ErrorCode.NotEnoughTokens]: 402,
  [ErrorCode.TextTooShort]: 422,
  [ErrorCode.QuestionLimit]: 402,
  [ErrorCode.DetectorCharsLimit]: 402,
  [ErrorCode.DetectorRequestLimit]: 413,
  [ErrorCode.DetectorFileLimit]: 413,
  [ErrorCode.AnalysisFailed]: 500,
  [ErrorCode.StreamExpired]: 410,
  [ErrorCode.AiUnavailable]: 503,
  [ErrorCode.LanguageUnavailable]: 422,
  [ErrorCode.ShareExpired]: 410,
  [ErrorCode.NeedPdfFirst]: 400,
  [ErrorCode.UploadFailed]: 400,
};

/**
 * A failure that carries its catalogue code; the message defaults to the catalogue's. A limit's
 * refusal carries the upgrade dialog to open and the limit passed, as the envelope's `data`.
 */
export class QuireError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string = errorMessages[code],
    /** The envelope's `data` with the refusal: the dialog to open and the limit passed. */
    readonly data?: LimitRefusal,
  ) {
    super(message);
    this.name = 'QuireError';
  }
}

export function isQuireError(e: unknown): e is QuireError {
  return e instanceof QuireError;
}

/** 3023's texts: a signed-in user is told the day's shares are used up (or not in the plan); a visitor is asked to sign in. */
export const shareLimitMessages = {
  signedIn: errorMessages[ErrorCode.ShareLimit],
  notInPlan: 'Sharing documents is a Premium feature. Upgrade to share.',
  signedOut: 'Please log in to share documents.',
} as const;

/**
 * The catalogue's messages in one language other than English, by code: the files in catalogue/
 * (one per site locale), which the page loads with its texts and the server reads to word a
 * refusal in the caller's language.
 */
export type CatalogueTexts = Partial<Record<ErrorCode, string>>;
