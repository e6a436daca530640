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
  /**
   * Longest wait for the SMTP server, per step (connecting, its greeting, each answer): a server
   * that accepts and then says nothing fails the attempt after this, and the mail is retried.
   * @default 15000
   */
  timeoutMs?: number;
  /** How often mail that could not be sent is tried again. @default 30000 */
  retryMs?: number;
}

/** The error recorded for a mail whose SMTP exchange `close()` cut short. */
const ABANDONED = 'not sent: the service stopped during the SMTP exchange';

/**
 * Drains the outbox over SMTP: at start (mail left by an earlier run), on demand (`kick`, after a
 * commit queued mail) and every `retryMs`, so mail queued while SMTP was down, refusing or silent
 * is retried; a mail is marked sent only once the server accepted it. `close()` does not wait for
 * the SMTP server: an exchange under way is abandoned (recorded as an attempt; the mail stays in
 * the outbox and goes from a later run), and once `close()` resolves nothing reads or writes the
 * store. Never throws.
 */
export function startMailSender(store: Store, smtp: SmtpOptions) {
  const timeout = smtp.timeoutMs ?? 15_000;
  const transport = nodemailer.createTransport({
    host: smtp.host,
    port: smtp.port,
    secure: smtp.secure ?? false,
    ignoreTLS: smtp.ignoreTLS ?? false,
    auth: smtp.auth,
    connectionTimeout: timeout,
    greetingTimeout: timeout,
    socketTimeout: timeout,
  });
  const from = smtp.from ?? 'Svc <no-reply@svc.local>';
  /** Aborted by `close()`: the SMTP exchange under way ends at once. */
  const closing = new AbortController();
  let running: Promise<void> | undefined;
  let again = false;
  let failing = false; // logged once per outage, not once per retry
  const failed = (err: unknown) => {
    if (!failing) console.error(`svc-server: mail not sent, retrying: ${(err as Error).message}`);
    failing = true;
  };

  const drain = async () => {
    for (const mail of await store.pendingMail(20)) {
      if (closing.signal.aborted) return;
      try {
        await transport.sendMail({
          from,
          to: mail.to,
          subject: mail.subject,
          text: mail.text,
          signal: closing.signal,
        } as Parameters<typeof transport.sendMail>[0]);
        await store.markMail(mail.id, { sent: true });
        failing = false;
      } catch (err) {
        if (closing.signal.aborted) {
          // Abandoned at close: recorded (which lets go of its claim), left for a later run.
          await store.markMail(mail.id, { sent: false, error: ABANDONED });
          return;
        }
        failed(err);
        await store.markMail(mail.id, { sent: false, error: String((err as Error).message) });
        // The server refused this one mail (a 5xx to a recipient, say): try the next. Anything
        // else (unreachable, silent, 4xx) would fail the rest too: wait for the next round.
        if (!((err as { responseCode?: number }).responseCode! >= 500)) return;
      }
    }
  };
  const kick = (): Promise<void> => {
    if (closing.signal.aborted) return Promise.resolve();
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
  const timer = setInterval(kick, smtp.retryMs ?? 30_000);
  timer.unref();
  void kick();
  return {
    kick,
    /** Stops sending: the exchange under way is abandoned; resolves once the store is left alone. */
    async close() {
      clearInterval(timer);
      closing.abort();
      await running;
      transport.close();
    },
  };
}
