// A failure a worker program (MuPDF's, the image worker) reports on its answer line: its catalogue
// code, and either a message or words the server says in the caller's language (texts/words.ts,
// imported for its type only: the worker bundles carry no catalogue).
import type { Said } from '../texts/words.js';

/** A failure the user can act on, with its catalogue code. */
export class JobFailure extends Error {
  readonly said?: Said;
  constructor(
    readonly code: number,
    message: string | Said,
  ) {
    super(typeof message === 'string' ? message : message.key);
    if (typeof message !== 'string') this.said = message;
  }
}

/** A failed job's answer line. */
export interface FailureAnswer {
  ok: false;
  code: number;
  msg: string;
  said?: Said;
}

export const failureAnswer = (e: { code: number; message: string; said?: Said }): FailureAnswer => ({
  ok: false,
  code: e.code,
  msg: e.message,
  ...(e.said && { said: e.said }),
});
