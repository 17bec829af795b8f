export interface Mail {
  readonly to: string;
  readonly subject: string;
  readonly text: string;
}

/** Outgoing mail. Adapters: SMTP, or an outbox table plus the log when no SMTP server is configured. */
export abstract class Mailer {
  abstract send(mail: Mail): Promise<void>;
}
