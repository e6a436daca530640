import nodemailer from 'nodemailer';
import { StoreUnavailableError } from '../store/availability.ts';
import type { Store } from '../store/types.ts';

export interface SmtpOptions {
  host: string;
  port: number;
  /** Implicit TLS (port 465 style). @default false */
  secure?: boolean;
  /** Never upgrade with STARTTLS (local test receivers). @default false */
  ignoreTLS?: boolean;
  auth?: { user: string; pass: string };
  /** @default 'Svc <no-reply@svc.local>' */
  from?: string;
}

/**
 * Drains the outbox over SMTP: on demand (`kick`, after a commit queued mail) and every
 * `intervalMs`, so mail queued while SMTP was down is retried. Never throws.
 */
export function startMailSender(store: Store, smtp: SmtpOptions, intervalMs = 30_000) {
  const transport = nodemailer.createTransport({
    host: smtp.host,
    port: smtp.port,
    secure: smtp.secure ?? false,
    ignoreTLS: smtp.ignoreTLS ?? false,
    auth: smtp.auth,
  });
  const from = smtp.from ?? 'Svc <no-reply@svc.local>';
  let running: Promise<void> | undefined;
  let again = false;

  const drain = async () => {
    for (const mail of await store.pendingMail(20)) {
      try {
        await transport.sendMail({ from, to: mail.to, subject: mail.subject, text: mail.text });
        await store.markMail(mail.id, { sent: true });
      } catch (err) {
        await store.markMail(mail.id, { sent: false, error: String((err as Error).message) });
        return;
      }
    }
  };
  const kick = (): Promise<void> => {
    if (running) {
      again = true;
      return running;
    }
    running = drain()
      .catch((err) => {
        // An unreachable database is logged once per outage by the store's guard.
        if (!(err instanceof StoreUnavailableError)) console.error('svc-server: mail sender', err);
      })
      .finally(() => {
        running = undefined;
        if (again) {
          again = false;
          void kick();
        }
      });
    return running;
  };
  const timer = setInterval(kick, intervalMs);
  timer.unref();
  return {
    kick,
    async close() {
      clearInterval(timer);
      await running;
      transport.close();
    },
  };
}
