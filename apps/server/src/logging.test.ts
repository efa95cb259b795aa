import { describe, expect, it } from 'vitest';
import { buildCalls } from './routes/calls.js';
import { urlRedactor } from './logging.js';

const redact = urlRedactor(buildCalls().map((c) => c.path));
const api = '/api/tools/v1/';

describe('urlRedactor', () => {
  it('blanks password query values, however they are spelled or encoded', () => {
    expect(redact(`${api}converter?file_id=ab12&passwd=s3cr%C3%A9t&output_format=png`)).toBe(
      `${api}converter?file_id=ab12&passwd=***&output_format=png`,
    );
    expect(redact(`${api}document/info?password=x&PASSWD=y&pass%77d=z`)).toBe(`${api}document/info?password=***&PASSWD=***&pass%77d=***`);
    expect(redact(`${api}merge?passwds[]=a&passwds[1]=b&passwds=c`)).toBe(`${api}merge?passwds[]=***&passwds[1]=***&passwds=***`);
  });

  it("blanks a session token handed to a page of the web app, keeping the page's other parameters", () => {
    expect(redact('/de/app/home?tab=recent&token=abc_DEF-123')).toBe('/de/app/home?tab=recent&token=***');
  });

  it("blanks the path segment a call names as a password, and only that call's", () => {
    expect(redact(`${api}document/redaction/ab12/redaction/open%20sesame`)).toBe(`${api}document/redaction/ab12/redaction/***`);
    expect(redact(`${api}document/redaction/ab12/redaction/pw?t=1`)).toBe(`${api}document/redaction/ab12/redaction/***?t=1`);
    expect(redact(`${api}document/redaction/ab12/redaction`)).toBe(`${api}document/redaction/ab12/redaction`);
    expect(redact(`${api}get-task-result?task_id=t1`)).toBe(`${api}get-task-result?task_id=t1`);
  });
});
