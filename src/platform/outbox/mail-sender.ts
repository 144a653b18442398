import nodemailer, { type Transporter } from 'nodemailer';
import type { NotificationMessage } from './channels.ts';
import type { SendResult } from './webhook-sender.ts';

/** Escapes text for the HTML part. */
function esc(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/**
 * Email notifications over SMTP with nodemailer, configured by one URL (VIGIL_SMTP_URL; `?from=`
 * names the sender). Plain text and HTML, the detection's snapshot inline, a link to the event or
 * incident (docs/decisions.md, "Notifications through the outbox"). Never throws: a refusal or an
 * unreachable server is a SendResult for the attempt log, and the outbox retries it.
 */
export class MailSender {
  private readonly transport: Transporter;
  readonly from: string;

  constructor(smtpUrl: string, opts: { timeoutMs: number }) {
    const url = new URL(smtpUrl);
    this.from = url.searchParams.get('from') ?? `Vigil <vigil@${url.hostname.includes('.') ? url.hostname : 'localhost.localdomain'}>`;
    url.searchParams.delete('from');
    this.transport = nodemailer.createTransport(url.toString(), {
      connectionTimeout: opts.timeoutMs,
      greetingTimeout: opts.timeoutMs,
      socketTimeout: opts.timeoutMs,
    } as never);
  }

  async send(to: string, m: NotificationMessage, snapshot: Buffer | null): Promise<SendResult> {
    const started = performance.now();
    const countNote = m.count > 1 ? ` (${m.count} times)` : '';
    const text = [
      m.body + countNote,
      '',
      ...(m.room ? [`Room: ${m.room}`] : []),
      ...(m.location ? [`Location: ${m.location}`] : []),
      `When: ${m.occurred_at}`,
      '',
      `Open: ${m.url}`,
    ].join('\n');
    const html = [
      `<p>${esc(m.body + countNote)}</p>`,
      snapshot ? '<p><img src="cid:snapshot@vigil" alt="Snapshot of what was seen" style="max-width:100%"></p>' : '',
      '<ul>',
      m.room ? `<li>Room: ${esc(m.room)}</li>` : '',
      m.location ? `<li>Location: ${esc(m.location)}</li>` : '',
      `<li>When: ${esc(m.occurred_at)}</li>`,
      '</ul>',
      `<p><a href="${esc(m.url)}">Open in Vigil</a></p>`,
    ].join('');
    try {
      const info = await this.transport.sendMail({
        from: this.from,
        to,
        subject: m.title,
        text,
        html,
        headers: { 'X-Vigil-Event': m.event, 'X-Vigil-Tag': m.tag },
        attachments: snapshot ? [{ filename: 'snapshot.jpg', content: snapshot, contentType: 'image/jpeg', cid: 'snapshot@vigil' }] : [],
      });
      const refused = (info.rejected as unknown[]).length > 0;
      return {
        statusCode: refused ? 550 : 250,
        error: refused ? `refused: ${String(info.response ?? '')}`.slice(0, 300) : null,
        durationMs: Math.round(performance.now() - started),
      };
    } catch (err) {
      const e = err as { responseCode?: number; code?: string; message?: string };
      return {
        statusCode: e.responseCode ?? null,
        error: `${e.code ? `${e.code}: ` : ''}${e.message ?? String(err)}`.slice(0, 300),
        durationMs: Math.round(performance.now() - started),
      };
    }
  }

  close(): void {
    this.transport.close();
  }
}
