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
  [ErrorCode.NeedPdfFirst]: 'Please upload a PDF first.',
  [ErrorCode.UploadFailed]: 'Upload failed. Please try again later.',
};

/** A failure that carries its catalogue code; the message defaults to the catalogue's. */
export class QuireError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string = errorMessages[code],
  ) {
    super(message);
    this.name = 'QuireError';
  }
}

export function isQuireError(e: unknown): e is QuireError {
  return e instanceof QuireError;
}

/** 4013's message naming the limit: the page count of one document, uploaded or made by a tool. */
export const tooManyPagesMessage = (maxPages: number) => `The number of pages exceeds the limit of ${maxPages} pages.`;
