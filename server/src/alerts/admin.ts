import type { AlertStore } from '../store/alert-types.ts';
import { type AddressPolicy, AddressPolicyError, permittedAddresses } from './address.ts';
import { attemptRecord } from './deliverer.ts';
import { alertBody, testPayload } from './payload.ts';
import { sendAlert } from './send.ts';
import {
  AlertSetupError,
  type RuleInput,
  ruleOf,
  type WebhookInput,
  webhookFormat,
  webhookName,
  webhookUrl,
} from './setup.ts';
import { alertHeaders, newWebhookSecret } from './sign.ts';
import type { AlertRule, DeliveryLogRow, Webhook } from './types.ts';

/** What a test delivery came to. */
export interface TestResult {
  deliveryId: number;
  delivered: boolean;
  status: number | null;
  error: string | null;
}

/** Alert setup: webhooks, rules, test deliveries and the delivery log (the board, the CLI, code). */
export interface AlertAdmin {
  /** `secret` (json webhooks) is returned once; only its hash is stored. */
  addWebhook(input: WebhookInput): Promise<{ webhook: Webhook; secret: string | null }>;
  listWebhooks(projectId: number): Promise<Webhook[]>;
  /** Also removes its rules and cancels their pending deliveries. */
  removeWebhook(id: number): Promise<void>;
  addRule(input: RuleInput): Promise<AlertRule>;
  listRules(projectId: number): Promise<AlertRule[]>;
  removeRule(id: number): Promise<void>;
  /** Sends one test alert of the rule to its webhook now (one attempt, in the log as `test`). */
  test(ruleId: number): Promise<TestResult>;
  deliveries(
    projectId: number,
    page?: { before?: number; limit?: number },
  ): Promise<DeliveryLogRow[]>;
}

export interface AlertAdminSettings {
  policy: AddressPolicy;
  timeoutMs: number;
  now: () => number;
  publicUrl: string | undefined;
}

/** A project that does not exist, as each engine's foreign key says it. */
const missingReference = (error: unknown) => {
  const code = (error as { code?: unknown }).code;
  return code === 'SQLITE_CONSTRAINT_FOREIGNKEY' || code === '23503';
};

/** Refuses a URL whose host the address policy refuses (or that does not resolve). */
async function reachable(url: URL, policy: AddressPolicy): Promise<void> {
  try {
    await permittedAddresses(url.hostname, policy);
  } catch (error) {
    if (error instanceof AddressPolicyError) throw new AlertSetupError(error.message);
    throw new AlertSetupError(`The webhook's host ${url.hostname} could not be resolved.`);
  }
}

export function createAlertAdmin(store: AlertStore, s: AlertAdminSettings): AlertAdmin {
  const claimMs = s.timeoutMs + 60_000;
  return {
    async addWebhook(input) {
      const url = webhookUrl(input.url);
      const format = webhookFormat(input.format);
      await reachable(url, s.policy);
      const secret = format === 'json' ? newWebhookSecret() : null;
      try {
        const webhook = await store.addWebhook({
          projectId: input.projectId,
          name: webhookName(input.name, url),
          url: url.href,
          format,
          secretHash: secret?.secretHash ?? null,
        });
        return { webhook, secret: secret?.secret ?? null };
      } catch (error) {
        if (missingReference(error))
          throw new AlertSetupError(`There is no project #${input.projectId}.`);
        throw error;
      }
    },
    listWebhooks: async (projectId) => store.listWebhooks(projectId),
    async removeWebhook(id) {
      if (!(await store.removeWebhook(id)))
        throw new AlertSetupError(`There is no webhook #${id}.`);
    },
    async addRule(input) {
      const rule = await store.addRule(ruleOf(input));
      if (!rule) {
        throw new AlertSetupError(
          `There is no webhook #${input.webhookId} in project #${input.projectId}.`,
        );
      }
      return rule;
    },
    listRules: async (projectId) => store.listRules(projectId),
    async removeRule(id) {
      if (!(await store.removeRule(id)))
        throw new AlertSetupError(`There is no alert rule #${id}.`);
    },
    async test(ruleId) {
      const at = s.now();
      const due = await store.addTestDelivery(
        ruleId,
        at,
        claimMs,
        (deliveryId, rule, project, format) =>
          alertBody(
            format,
            testPayload(rule, {
              deliveryId,
              projectId: rule.projectId,
              projectName: project,
              card: null,
              publicUrl: s.publicUrl,
              now: at,
            }),
          ),
      );
      if (!due) throw new AlertSetupError(`There is no alert rule #${ruleId}.`);
      const result = await sendAlert(
        { url: due.url, body: due.body, headers: alertHeaders(due, s.now()) },
        { policy: s.policy, timeoutMs: s.timeoutMs },
      );
      const once = { schedule: { baseMs: 0, capMs: 0, maxAttempts: 1 }, random: Math.random };
      const record = attemptRecord(once, due, result, s.now());
      await store.recordAttempt(due.id, record);
      return {
        deliveryId: due.id,
        delivered: record.delivered,
        status: record.status,
        error: record.error,
      };
    },
    deliveries: async (projectId, page = {}) =>
      store.listDeliveries(projectId, { before: page.before, limit: page.limit ?? 50 }),
  };
}
