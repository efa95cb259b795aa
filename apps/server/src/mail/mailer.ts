// Mail to users goes through the operator's SMTP server (QUIRE_SMTP_URL). Without one, nothing is
// sent and the operator is told what was not, without the message itself: it holds a link's token.
import nodemailer from 'nodemailer';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  /** Where an answer goes when it is not to Quire (a share's sender). */
  replyTo?: string;
}

export interface Mailer {
  /** Whether mail reaches anyone: without it, the operator confirms addresses by command. */
  readonly sends: boolean;
  send(mail: Mail): Promise<void>;
}

export function createMailer(smtpUrl: string, from: string, log = (line: string) => console.warn(line)): Mailer {
  if (!smtpUrl) {
    return {
      sends: false,
      async send(mail) {
        log(`Mail is not configured (QUIRE_SMTP_URL): "${mail.subject}" to ${mail.to} was not sent.`);
      },
    };
  }
  const transport = nodemailer.createTransport(smtpUrl);
  return {
    sends: true,
    async send(mail) {
      await transport.sendMail({ from, ...mail });
    },
  };
}
