import {
  CARD_STATUSES,
  type CardStatus,
  DEFAULT_ENV,
  newestRelease,
  RESOLVED_STATUS,
} from '../accept/index.ts';
import { AdminError } from '../admin.ts';
import type { BoardStore, StatusChanged } from '../store/board-types.ts';
import { openBoardStore } from '../store/open.ts';
import { type Flags, id, required, UsageError } from './args.ts';
import { databaseUrlOf, dataDirOf } from './shared.ts';

/** Who a status change from the CLI is recorded as, in the card's history. */
export const CLI_ACTOR = 'cli';
/** Releases of a project "the current release" is chosen from (the latest first seen). */
const RECENT_RELEASES = 100;

/**
 * `svc-server cards set-status --card ID --status S [--env E] [--release R | --current-release]`:
 * the same change as the board's buttons (the history records it as made by `cli`), exact beside a
 * running service on either store. `done` is resolved in an environment (`--env`, production by
 * default, as the board's default view) and optionally in a release.
 */
export async function runSetStatus(flags: Flags): Promise<void> {
  const cardId = id(flags.card, '--card');
  const status = required(flags.status, 'status') as CardStatus;
  if (!CARD_STATUSES.includes(status)) {
    throw new UsageError(`--status must be one of ${CARD_STATUSES.join(', ')}.`);
  }
  const resolving = status === RESOLVED_STATUS;
  if (!resolving && (flags.env || flags.release || flags['current-release'])) {
    throw new UsageError(`--env and --release go with --status ${RESOLVED_STATUS}.`);
  }
  if (flags.release && flags['current-release']) {
    throw new UsageError('Either --release or --current-release, not both.');
  }
  const store = await openBoardStore({
    databaseUrl: databaseUrlOf(flags),
    dataDir: dataDirOf(flags),
  });
  try {
    const release = flags['current-release']
      ? await currentRelease(store, cardId)
      : flags.release?.trim() || undefined;
    const env = resolving ? flags.env?.trim() || DEFAULT_ENV : undefined;
    const [card] = await store.setCardStatus({
      cardIds: [cardId],
      status,
      actor: CLI_ACTOR,
      at: Date.now(),
      env,
      release,
    });
    if (!card) throw new AdminError(`No card with id ${cardId}.`);
    console.log(
      flags.json ? JSON.stringify({ ...card, env, release }, null, 2) : said(card, env, release),
    );
  } finally {
    await store.close();
  }
}

async function currentRelease(store: BoardStore, cardId: number): Promise<string> {
  const names = await store.listReleases({ cardId }, RECENT_RELEASES);
  const current = newestRelease(names.reverse());
  if (current === null) {
    throw new AdminError(
      `Card #${cardId}: its project has seen no release yet; name one with --release.`,
    );
  }
  return current;
}

function said(card: StatusChanged, env?: string, release?: string): string {
  const name = `Card #${card.id} "${card.title}"`;
  if (env === undefined) {
    return card.from === card.to
      ? `${name} is already ${card.to}.`
      : `${name} is now ${card.to} (was ${card.from}).`;
  }
  const since = release ? `, from release ${release} on` : '';
  const was = card.from === card.to ? '' : ` (was ${card.from})`;
  return `${name} is ${card.to} in ${env}${since}${was}: only a report from there reopens it.`;
}
