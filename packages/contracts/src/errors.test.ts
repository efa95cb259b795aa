// Every catalogue code has the HTTP status it is answered with, and only a server's own faults are 5xx.
import { describe, expect, it } from 'vitest';
import { ErrorCode, errorHttpStatus } from './errors.js';

/** The codes that say the server (or a service it depends on) failed, not the caller's request. */
const SERVER_FAULTS: ErrorCode[] = [
  ErrorCode.Generic,
  ErrorCode.ServiceDown,
  ErrorCode.SsoUnavailable,
  ErrorCode.TaskFailed,
  ErrorCode.Busy,
  ErrorCode.TimestampUnavailable,
  ErrorCode.TimestampInvalid,
  ErrorCode.AnalysisFailed,
  ErrorCode.AiUnavailable,
];

describe('HTTP status of the catalogue codes', () => {
  const codes = Object.values(ErrorCode);

  it('gives every code a status', () => {
    for (const code of codes) expect(errorHttpStatus[code], String(code)).toBeTypeOf('number');
    expect(Object.keys(errorHttpStatus).map(Number).sort()).toEqual([...codes].sort());
  });

  it('answers only the server faults with 5xx, and every refusal with 4xx', () => {
    for (const code of codes.filter((c) => c !== ErrorCode.Ok)) {
      const status = errorHttpStatus[code];
      if (SERVER_FAULTS.includes(code)) expect(status, String(code)).toBeGreaterThanOrEqual(500);
      else expect([status >= 400, status < 500], String(code)).toEqual([true, true]);
    }
    expect(errorHttpStatus[ErrorCode.Busy]).toBe(503);
    // NEED_OCR: OCR asked of a server without it, a request this server cannot serve (as 4217).
    expect(errorHttpStatus[ErrorCode.NeedOcr]).toBe(422);
  });

  it('answers the limits and quotas as what they are: too large, payment, too many', () => {
    expect(errorHttpStatus[ErrorCode.TooLarge]).toBe(413);
    expect(errorHttpStatus[ErrorCode.TooManyPages]).toBe(413);
    expect(errorHttpStatus[ErrorCode.DailyTaskLimit]).toBe(429);
    for (const quota of [ErrorCode.NotEnoughTokens, ErrorCode.QuestionLimit, ErrorCode.DetectorCharsLimit, ErrorCode.CloudFull])
      expect(errorHttpStatus[quota], String(quota)).toBe(402);
  });
});
