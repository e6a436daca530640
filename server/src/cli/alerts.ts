import { addressPolicy } from '../alerts/address.ts';
import { type AlertAdmin, createAlertAdmin } from '../alerts/admin.ts';
import { publicUrlOf } from '../alerts/deliverer.ts';
import { shownUrl } from '../alerts/setup.ts';
import { openAlertStore } from '../store/open.ts';
import { type Flags, id, required, UsageError } from './args.ts';
import { table } from './format.ts';
import { databaseUrlOf, dataDirOf } from './shared.ts';

/** The address policy of `--webhook-allow` / `--webhook-deny`, else `$SERVICE_WEBHOOK_ALLOW` / `_DENY`. */
export function webhookPolicyOf(flags: Flags) {
  const env = (name: string) => process.env[name]?.split(',');
  return {
    allow: flags['webhook-allow'] ?? env('SERVICE_WEBHOOK_ALLOW'),
    deny: flags['webhook-deny'] ?? env('SERVICE_WEBHOOK_DENY'),
  };
}

/** `--public-url`, else `$SERVICE_PUBLIC_URL`: where alerts link cards to the board. */
export const publicUrlFlag = (flags: Flags) =>
  flags['public-url'] || process.env.SERVICE_PUBLIC_URL || undefined;

/**
 * `svc-server webhooks add|list|remove` (where alerts go) and `svc-server alerts
 * add|list|remove|test|log` (what fires them, a test, the delivery log), on the store the flags
 * select. A JSON webhook's secret is printed once.
 */
export async function runAlerts(
  command: 'webhooks' | 'alerts',
  sub: string | undefined,
  arg: string | undefined,
  flags: Flags,
): Promise<void> {
  const store = await openAlertStore({
    databaseUrl: databaseUrlOf(flags),
    dataDir: dataDirOf(flags),
  });
  const admin = createAlertAdmin(store, {
    policy: addressPolicy(webhookPolicyOf(flags)),
    timeoutMs: 10_000,
    now: Date.now,
    publicUrl: publicUrlOf({ publicUrl: publicUrlFlag(flags) }),
  });
  try {
    await (command === 'webhooks' ? webhooks : alerts)(admin, sub, arg, flags);
  } finally {
    await store.close();
  }
}

const print = (flags: Flags, value: unknown, text: () => string) =>
  console.log(flags.json ? JSON.stringify(value, null, 2) : text());

async function webhooks(
  admin: AlertAdmin,
  sub: string | undefined,
  arg: string | undefined,
  flags: Flags,
) {
  switch (sub) {
    case 'add': {
      const { webhook, secret } = await admin.addWebhook({
        projectId: id(flags.project, '--project'),
        url: required(flags.url, 'url'),
        name: flags.name,
        format: flags.format,
      });
      return print(flags, { ...webhook, url: shownUrl(webhook.url), secret }, () =>
        [
          `Webhook #${webhook.id} "${webhook.name}" (${webhook.format}) for project #${webhook.projectId}: ${shownUrl(webhook.url)}`,
          secret
            ? `  secret: ${secret}\n  (shown once: store it now; receivers verify X-Svc-Signature with it, see the alerts guide, server/docs/alerts.md)`
            : '  (Slack-compatible: unsigned, the URL is its credential)',
          `Add a rule: svc-server alerts add --project ${webhook.projectId} --webhook ${webhook.id} --on new`,
        ].join('\n'),
      );
    }
    case 'list': {
      const list = await admin.listWebhooks(id(flags.project, '--project'));
      const shown = list.map((w) => ({ ...w, url: shownUrl(w.url) }));
      return print(flags, shown, () =>
        table(
          ['ID', 'NAME', 'FORMAT', 'RECEIVER', 'ADDED'],
          shown.map((w) => [w.id, w.name, w.format, w.url, w.createdAt]),
        ),
      );
    }
    case 'remove': {
      const webhookId = id(arg, 'Webhook');
      await admin.removeWebhook(webhookId);
      return print(
        flags,
        { removed: webhookId },
        () => `Webhook #${webhookId} removed, with its rules.`,
      );
    }
    default:
      throw new UsageError(`Unknown command "webhooks ${sub ?? ''}".`);
  }
}

async function alerts(
  admin: AlertAdmin,
  sub: string | undefined,
  arg: string | undefined,
  flags: Flags,
) {
  switch (sub) {
    case 'add': {
      const rule = await admin.addRule({
        projectId: id(flags.project, '--project'),
        webhookId: id(flags.webhook, '--webhook'),
        event: required(flags.on, 'on'),
        name: flags.name,
        environments: flags.env, // one or several, comma-separated
        severities: flags.severity,
        threshold: flags['more-than'],
        windowMinutes: flags.minutes,
      });
      return print(
        flags,
        rule,
        () => `Alert rule #${rule.id} "${rule.name}" sends to webhook #${rule.webhookId}.`,
      );
    }
    case 'list': {
      const list = await admin.listRules(id(flags.project, '--project'));
      return print(flags, list, () =>
        table(
          ['ID', 'NAME', 'ON', 'THRESHOLD', 'MINUTES', 'ENVIRONMENTS', 'SEVERITIES', 'WEBHOOK'],
          list.map((r) => [
            r.id,
            r.name,
            r.event,
            r.threshold,
            r.windowMinutes,
            r.environments?.join(',') ?? 'any',
            r.severities?.join(',') ?? 'any',
            r.webhookId,
          ]),
        ),
      );
    }
    case 'remove': {
      const ruleId = id(arg, 'Alert rule');
      await admin.removeRule(ruleId);
      return print(flags, { removed: ruleId }, () => `Alert rule #${ruleId} removed.`);
    }
    case 'test': {
      const result = await admin.test(id(arg, 'Alert rule'));
      const outcome = result.delivered
        ? `delivered (HTTP ${result.status})`
        : `not delivered (${result.error ?? `HTTP ${result.status}`})`;
      if (!result.delivered) process.exitCode = 1;
      return print(flags, result, () => `Test alert #${result.deliveryId}: ${outcome}.`);
    }
    case 'log': {
      const before = flags.before === undefined ? undefined : id(flags.before, '--before');
      const rows = await admin.deliveries(id(flags.project, '--project'), { before, limit: 50 });
      const shown = rows.map((d) => ({ ...d, webhookUrl: shownUrl(d.webhookUrl) }));
      return print(flags, shown, () =>
        table(
          ['ID', 'EVENT', 'RULE', 'CARD', 'WEBHOOK', 'STATE', 'ATTEMPTS', 'LAST', 'NEXT RETRY'],
          shown.map((d) => [
            d.id,
            d.event,
            d.ruleId,
            d.cardId,
            d.webhookId,
            d.state,
            d.attempts,
            d.lastStatus ?? d.lastError,
            d.nextAttemptAt,
          ]),
        ),
      );
    }
    default:
      throw new UsageError(`Unknown command "alerts ${sub ?? ''}".`);
  }
}
