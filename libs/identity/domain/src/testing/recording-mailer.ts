import { Mailer, type Mail } from '../ports/mailer.js';

/** Keeps every mail instead of sending it. */
export class RecordingMailer extends Mailer {
  readonly sent: Mail[] = [];

  async send(mail: Mail): Promise<void> {
    this.sent.push({ ...mail });
  }

  /** The mails sent to one address. */
  to(address: string): Mail[] {
    return this.sent.filter((m) => m.to === address);
  }
}
