import { CARD_STATUSES, type CardStatus } from '../accept/index.ts';
import { AdminError } from '../admin.ts';
import { openBoardStore } from '../store/open.ts';
import { type Flags, id, required, UsageError } from './args.ts';
import { databaseUrlOf, dataDirOf } from './shared.ts';

/** Who a status change from the CLI is recorded as, in the card's history. */
export const CLI_ACTOR = 'cli';

/**
 * `svc-server cards set-status --card ID --status S`: the same change as the board's buttons (the
 * history records it as made by `cli`), exact beside a running service on either store.
 */
export async function runSetStatus(flags: Flags): Promise<void> {
  const cardId = id(flags.card, '--card');
  const status = required(flags.status, 'status') as CardStatus;
  if (!CARD_STATUSES.includes(status)) {
    throw new UsageError(`--status must be one of ${CARD_STATUSES.join(', ')}.`);
  }
  const store = await openBoardStore({
    databaseUrl: databaseUrlOf(flags),
    dataDir: dataDirOf(flags),
  });
  try {
    const [card] = await store.setCardStatus({
      cardIds: [cardId],
      status,
      actor: CLI_ACTOR,
      at: Date.now(),
    });
    if (!card) throw new AdminError(`No card with id ${cardId}.`);
    console.log(
      flags.json
        ? JSON.stringify(card, null, 2)
        : card.from === card.to
          ? `Card #${card.id} "${card.title}" is already ${card.to}.`
          : `Card #${card.id} "${card.title}" is now ${card.to} (was ${card.from}).`,
    );
  } finally {
    await store.close();
  }
}
