import { IGNORED_STATUS } from '../accept/index.ts';
import type { Card } from './types.ts';

/** Cards one digest names; a storm beyond it is counted in a last line. */
export const DIGEST_MAX_CARDS = 1000;

/** A queued notice with its card as it is now (the notice queue joined with `cards`). */
export interface NoticeRow {
  id: number;
  card_id: number;
  kind: 'new' | 'regression';
  release: string | null;
  at: number;
  title: string;
  status: Card['status'];
  severity: string;
  occurrence_count: number;
  regressions: number;
}

/** The project a digest is for, and where it goes. */
export interface DigestProject {
  projectId: number;
  project: string;
  account: string;
  recipients: string[];
}

const plural = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;

/**
 * The text of one project's digest, the same from both stores: every card with a notice since the
 * last digest, once each (a regression wins over `new`; its latest release shown), except those
 * ignored since; null when nothing is left to say.
 */
export function digestMail(
  to: DigestProject,
  notices: readonly NoticeRow[],
): { subject: string; body: string } | null {
  const cards = new Map<number, NoticeRow>();
  for (const n of notices) {
    const seen = cards.get(n.card_id);
    if (!seen || n.kind === 'regression') cards.set(n.card_id, n);
  }
  const listed = [...cards.values()].filter((n) => n.status !== IGNORED_STATUS);
  if (listed.length === 0) return null;
  const fresh = listed.filter((n) => n.kind === 'new');
  const back = listed.filter((n) => n.kind === 'regression');
  let room = DIGEST_MAX_CARDS;
  const lines = (rows: NoticeRow[], label: (n: NoticeRow) => string) => {
    const shown = rows.slice(0, Math.max(0, room));
    room -= shown.length;
    const out = shown.map((n) => `- #${n.card_id} [${n.severity}] ${n.title} (${label(n)})`);
    if (rows.length > shown.length) out.push(`- ... and ${rows.length - shown.length} more`);
    return out;
  };
  const since = new Date(Math.min(...notices.map((n) => n.at))).toISOString().slice(0, 16);
  const parts = [plural(fresh.length, 'new card'), plural(back.length, 'regression')];
  const body = [
    `Project "${to.project}" (account "${to.account}"), since ${since.replace('T', ' ')} UTC:`,
    ...(fresh.length === 0
      ? []
      : [
          '',
          `New cards (${fresh.length}):`,
          ...lines(fresh, (n) => plural(n.occurrence_count, 'report')),
        ]),
    ...(back.length === 0
      ? []
      : [
          '',
          `Regressions, resolved cards reported again (${back.length}):`,
          ...lines(back, (n) =>
            [
              n.release === null ? null : `release ${n.release}`,
              `regression ${n.regressions}`,
              plural(n.occurrence_count, 'report'),
            ]
              .filter(Boolean)
              .join(', '),
          ),
        ]),
    '',
    `Triage them on the board: /board/projects/${to.projectId}`,
    `Stop these e-mails: svc-server notify off --project ${to.projectId}`,
  ];
  return {
    subject: `[Svc] ${to.project}: ${parts.filter((p) => !p.startsWith('0 ')).join(', ')}`,
    body: body.join('\n'),
  };
}
