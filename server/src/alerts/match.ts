import { IGNORED_STATUS } from '../accept/index.ts';
import type { AlertCardRow, AlertRule, AlertWork, Firing } from './types.ts';

/** True when the rule listens to reports from `environment` (null: a report without `env:`). */
export const listensTo = (rule: AlertRule, environment: string | null): boolean =>
  rule.environments === null || (environment !== null && rule.environments.includes(environment));

/** True when a card of this severity may fire the rule, and nobody ignored it. */
const fires = (rule: AlertRule, card: AlertCardRow | undefined): card is AlertCardRow =>
  card !== undefined &&
  card.status !== IGNORED_STATUS &&
  (rule.severities === null || rule.severities.includes(card.severity));

/**
 * The rules that fire on what a store read (pure: no clock, no I/O). A queued new card or
 * regression fires each rule of its project listening to that event and the report's environment;
 * a counted card fires its frequency rule (the store counted only over the rule's environments
 * and above its threshold). Cards someone ignored fire nothing; a severity filter compares the
 * card's severity. Each (rule, card) pair fires once per turn; the store lets it through only
 * when the rule's window has passed since its last alert for the card.
 */
export function planFirings(work: AlertWork): Firing[] {
  const byProject = new Map<number, AlertRule[]>();
  const byId = new Map<number, AlertRule>();
  for (const rule of work.rules) {
    byId.set(rule.id, rule);
    const list = byProject.get(rule.projectId);
    if (list) list.push(rule);
    else byProject.set(rule.projectId, [rule]);
  }
  const firings = new Map<string, Firing>();
  const add = (firing: Firing) => {
    const key = `${firing.rule.id}:${firing.cardId}`;
    if (!firings.has(key)) firings.set(key, firing);
  };
  for (const notice of work.notices) {
    const card = work.cards.get(notice.cardId);
    for (const rule of byProject.get(notice.projectId) ?? []) {
      if (rule.event !== notice.event || !listensTo(rule, notice.environment)) continue;
      if (!fires(rule, card)) continue;
      add({
        rule,
        cardId: notice.cardId,
        event: notice.event,
        environment: notice.environment,
        release: notice.release,
        count: null,
      });
    }
  }
  for (const counted of work.counted) {
    const rule = byId.get(counted.ruleId);
    if (rule?.event !== 'frequency' || !fires(rule, work.cards.get(counted.cardId))) continue;
    if (counted.count <= rule.threshold!) continue;
    add({
      rule,
      cardId: counted.cardId,
      event: 'frequency',
      environment: counted.environment,
      release: null,
      count: counted.count,
    });
  }
  return [...firings.values()];
}
