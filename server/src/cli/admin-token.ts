import { createAdminTokens } from '../board/tokens.ts';
import { openBoardStore } from '../store/open.ts';
import { type Flags, id, UsageError } from './args.ts';
import { table } from './format.ts';
import { databaseUrlOf, dataDirOf } from './shared.ts';

/** `svc-server admin-token create|list|revoke`: the tokens that open the board. */
export async function runAdminToken(
  sub: string | undefined,
  arg: string | undefined,
  flags: Flags,
): Promise<void> {
  const store = await openBoardStore({
    databaseUrl: databaseUrlOf(flags),
    dataDir: dataDirOf(flags),
  });
  const tokens = createAdminTokens(store);
  const print = (value: unknown, text: () => string) =>
    console.log(flags.json ? JSON.stringify(value, null, 2) : text());
  try {
    switch (sub) {
      case 'create': {
        const t = await tokens.create({ name: flags.name });
        return print(
          t,
          () =>
            `Admin token #${t.id} "${t.name}" (shown once: store it now, it cannot be displayed again)\n  token: ${t.token}\nSign in at /board of a service started with --board, or send "Authorization: Bearer <token>".`,
        );
      }
      case 'list': {
        const list = await tokens.list();
        return print(list, () =>
          table(
            ['ID', 'NAME', 'CREATED', 'REVOKED'],
            list.map((t) => [t.id, t.name, t.createdAt, t.revokedAt]),
          ),
        );
      }
      case 'revoke': {
        const tokenId = id(arg, 'Admin token');
        await tokens.revoke(tokenId);
        return print(
          { revoked: tokenId },
          () => `Admin token #${tokenId} revoked; its board sessions have ended.`,
        );
      }
      default:
        throw new UsageError(`Unknown command "admin-token ${sub ?? ''}".`);
    }
  } finally {
    await store.close();
  }
}
