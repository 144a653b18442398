import { SMTPServer } from 'smtp-server';
import { simpleParser, type ParsedMail } from 'mailparser';
import type { AddressInfo } from 'node:net';

/** An SMTP server on loopback for tests (smtp-server) that parses each message (mailparser); `refuse` answers 451 to every message. */
export interface SmtpSink {
  url: string;
  mails: Array<ParsedMail & { envelopeTo: string[] }>;
  refuse: boolean;
  waitFor(n: number, timeoutMs?: number): Promise<SmtpSink['mails']>;
  close(): Promise<void>;
}

export async function startSmtpSink(): Promise<SmtpSink> {
  const sink: SmtpSink = {
    url: '',
    mails: [],
    refuse: false,
    async waitFor(n, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      while (sink.mails.length < n) {
        if (Date.now() > deadline) throw new Error(`smtp: ${sink.mails.length} of ${n} mails after ${timeoutMs} ms`);
        await new Promise((r) => setTimeout(r, 50));
      }
      return sink.mails;
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      if (sink.refuse) {
        stream.resume();
        stream.on('end', () => callback(Object.assign(new Error('try again later'), { responseCode: 451 })));
        return;
      }
      simpleParser(stream).then(
        (mail) => {
          sink.mails.push(Object.assign(mail, { envelopeTo: session.envelope.rcptTo.map((r) => r.address) }));
          callback();
        },
        (err) => callback(err as Error),
      );
    },
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  sink.url = `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}?from=${encodeURIComponent('Vigil <alerts@vigil.test>')}`;
  return sink;
}
