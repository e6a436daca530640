import type { QuotaWarning } from '../accept/index.ts';

/** Cards a quota warning names: the account's most active of the day. */
export const WARNING_TOP_CARDS = 5;

/** One of the day's most active cards, as a quota warning lists it. */
export interface TopCard {
  title: string;
  project: string;
  count: number;
}

/**
 * The text of one quota warning e-mail (contract 6, 8.3), the same from both stores: the account,
 * its use of the daily quota and the cards drawing the most events today.
 */
export function quotaWarningMail(
  accountName: string,
  warning: QuotaWarning,
  top: readonly TopCard[],
  at: string,
): { subject: string; body: string } {
  const { threshold: pct, used, quota } = warning;
  const lines = top.map((c, i) => `${i + 1}. ${c.title} (${c.project}): ${c.count} events`);
  return {
    subject: `[Svc] ${accountName} has used ${pct}% of its daily event quota`,
    body: [
      `Your account "${accountName}" has used ${used} of its ${quota} daily events (${pct}%) on ${at.slice(0, 10)} (UTC).`,
      pct === 100
        ? 'Further reports are dropped until the quota resets at midnight UTC.'
        : 'Reports beyond the quota are dropped until it resets at midnight UTC.',
      '',
      'Cards drawing the most events today:',
      ...lines,
    ].join('\n'),
  };
}
