import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { buildCalls } from './routes/calls.js';
import { loggerOptions, urlRedactor } from './logging.js';

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

  it("blanks single sign-on's authorization code and state in the callback's query", () => {
    expect(redact('/api/account/v1/oidc/callback?code=abc&state=def&iss=https%3A%2F%2Fid.example')).toBe(
      '/api/account/v1/oidc/callback?code=***&state=***&iss=https%3A%2F%2Fid.example',
    );
  });

  it("blanks a session token handed to a page of the web app, keeping the page's other parameters", () => {
    expect(redact('/de/app/home?tab=recent&token=abc_DEF-123')).toBe('/de/app/home?tab=recent&token=***');
  });

  it("blanks a share's code, in the API's query and in the page's link", () => {
    expect(redact('/api/tools/v1/share/get-share-file?share_code=AbC_dEf-123&t=1')).toBe(
      '/api/tools/v1/share/get-share-file?share_code=***&t=1',
    );
    expect(redact('/fr/preview?share_id=AbC_dEf-123')).toBe('/fr/preview?share_id=***');
  });

  it("blanks the path segment a call names as a password, and only that call's", () => {
    expect(redact(`${api}document/redaction/ab12/redaction/open%20sesame`)).toBe(`${api}document/redaction/ab12/redaction/***`);
    expect(redact(`${api}document/redaction/ab12/redaction/pw?t=1`)).toBe(`${api}document/redaction/ab12/redaction/***?t=1`);
    expect(redact(`${api}document/redaction/ab12/redaction`)).toBe(`${api}document/redaction/ab12/redaction`);
    expect(redact(`${api}get-task-result?task_id=t1`)).toBe(`${api}get-task-result?task_id=t1`);
  });
});

describe('the request log', () => {
  it('holds no header: neither a bearer session token or API key, nor a cookie', () => {
    const options = loggerOptions([], new PassThrough()) as { serializers: { req(req: object): object } };
    const logged = JSON.stringify(
      options.serializers.req({
        method: 'GET',
        url: `${api}config`,
        host: 'quire.example',
        ip: '192.0.2.1',
        headers: { authorization: 'Bearer qk_secret-api-key', cookie: 'quire_session=secret-session' },
      }),
    );
    expect(JSON.parse(logged)).toEqual({ method: 'GET', url: `${api}config`, host: 'quire.example', remoteAddress: '192.0.2.1' });
    expect(logged).not.toContain('secret');
  });
});
