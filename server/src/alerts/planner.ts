import { planFirings } from './match.ts';
import { alertBody, alertPayload } from './payload.ts';
import type { AlertPlanner } from './types.ts';

/**
 * The planner a store runs inside its planning transaction: `planFirings` decides, and each
 * delivery's body is the payload in its webhook's format, with links to the board when the
 * service's public address is known.
 */
export function createAlertPlanner(publicUrl: string | undefined): AlertPlanner {
  return {
    plan: planFirings,
    body(firing, deliveryId, work, now) {
      const webhook = work.webhooks.get(firing.rule.webhookId)!;
      const payload = alertPayload(firing, {
        deliveryId,
        projectId: firing.rule.projectId,
        projectName: work.projects.get(firing.rule.projectId) ?? '',
        card: work.cards.get(firing.cardId) ?? null,
        publicUrl,
        now,
      });
      return alertBody(webhook.format, payload);
    },
  };
}
