// A real SMTP server in the test's process: Quire's mail arrives here through nodemailer, and
// tests read it as a user would, following the links it holds.
import { SMTPServer } from 'smtp-server';
import type { AddressInfo } from 'node:net';
import { until } from './serverProcess.js';

export interface ReceivedMail {
  to: string[];
  subject: string;
  /** The Reply-To header, '' without one. */
  replyTo: string;
  /** The text body, quoted-printable undone. */
  text: string;
  /** Every http(s) link in the text. */
  links: string[];
}

/** Undoes quoted-printable transfer encoding (soft line breaks, =XX bytes). */
function fromQuotedPrintable(body: string): string {
  const bytes = body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

/** Undoes RFC 2047 encoded words (=?UTF-8?Q?…?=, =?UTF-8?B?…?=) in a header; the space between two of them goes too. */
function fromEncodedWords(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?[^?]+\?([QB])\?([^?]*)\?=/gi, (_, encoding: string, text: string) =>
      encoding.toUpperCase() === 'B' ? Buffer.from(text, 'base64').toString('utf8') : fromQuotedPrintable(text.replace(/_/g, ' ')),
    );
}

function parse(raw: string, to: string[]): ReceivedMail {
  const split = raw.indexOf('\r\n\r\n');
  const headers = raw.slice(0, split).replace(/\r\n[ \t]+/g, ' ');
  const header = (name: string) => new RegExp(`^${name}: *(.*)$`, 'im').exec(headers)?.[1] ?? '';
  let text = raw.slice(split + 4);
  if (/quoted-printable/i.test(header('Content-Transfer-Encoding'))) text = fromQuotedPrintable(text);
  if (/base64/i.test(header('Content-Transfer-Encoding'))) text = Buffer.from(text, 'base64').toString('utf8');
  return {
    to,
    subject: fromEncodedWords(header('Subject')),
    replyTo: header('Reply-To'),
    text,
    links: text.match(/https?:\/\/\S+/g) ?? [],
  };
}

export class Mailbox {
  /** Mails received and not yet taken. */
  readonly mails: ReceivedMail[] = [];
  /** Where Quire sends its mail (QUIRE_SMTP_URL). */
  url = '';
  private readonly server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData: (stream, session, done) => {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        this.mails.push(
          parse(
            Buffer.concat(chunks).toString('latin1'),
            session.envelope.rcptTo.map((r) => r.address),
          ),
        );
        done();
      });
    },
  });

  static async start(): Promise<Mailbox> {
    const box = new Mailbox();
    await new Promise<void>((resolve) => box.server.listen(0, '127.0.0.1', resolve));
    box.url = `smtp://127.0.0.1:${(box.server.server.address() as AddressInfo).port}`;
    return box;
  }

  /** The next mail to `to` not yet taken, waited for; it is taken. */
  async take(to: string): Promise<ReceivedMail> {
    const index = await until(`a mail to ${to}`, () => {
      const i = this.mails.findIndex((m) => m.to.includes(to));
      return i >= 0 ? i + 1 : undefined;
    });
    return this.mails.splice(index - 1, 1)[0]!;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
