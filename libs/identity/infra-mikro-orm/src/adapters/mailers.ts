import type { EntityManager } from '@mikro-orm/postgresql';
import { Mailer, type Mail } from '@rc/identity-domain';
import { createTransport, type Transporter } from 'nodemailer';
import { MailOutboxSchema } from '../schemas/identity.schemas.js';

export interface MailLog {
  info(message: string, fields?: Record<string, unknown>): void;
}

/** Without SMTP: mail is kept in the `mail_outbox` table and announced in the log. */
export class OutboxMailer extends Mailer {
  constructor(
    private readonly em: EntityManager,
    private readonly log: MailLog,
  ) {
    super();
  }

  async send(mail: Mail): Promise<void> {
    await this.em.insert(MailOutboxSchema, { recipient: mail.to, subject: mail.subject, body: mail.text, createdAt: new Date(), sentAt: null });
    this.log.info('mail written to the outbox (no SMTP_URL configured)', { to: mail.to, subject: mail.subject });
  }
}

/** A mail kept in the outbox, as the operator's CLI shows it. */
export interface OutboxMail {
  readonly to: string;
  readonly subject: string;
  readonly text: string;
  readonly createdAt: Date;
}

/** The newest mails of the outbox (of one recipient when given), newest first. */
export async function readOutbox(em: EntityManager, options: { to?: string; limit: number }): Promise<OutboxMail[]> {
  const rows = await em.find(MailOutboxSchema, options.to ? { recipient: options.to } : {}, { orderBy: { id: 'DESC' }, limit: options.limit });
  return rows.map((row) => ({ to: row.recipient, subject: row.subject, text: row.body, createdAt: row.createdAt }));
}

/** With SMTP_URL: mail goes to the SMTP server only (no copy of its text is kept). */
export class SmtpMailer extends Mailer {
  private readonly transport: Transporter;

  constructor(
    smtpUrl: string,
    private readonly from: string,
  ) {
    super();
    this.transport = createTransport(smtpUrl);
  }

  async send(mail: Mail): Promise<void> {
    await this.transport.sendMail({ from: this.from, to: mail.to, subject: mail.subject, text: mail.text });
  }
}
