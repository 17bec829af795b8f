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
