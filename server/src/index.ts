export { type Admin, AdminError, createAdmin } from './admin.ts';
export { signedPayload, hmacHex, SIGNED_PATH } from './auth/signature.ts';
export type { SmtpOptions } from './mail/sender.ts';
export { type RunningServer, type ServerOptions, startServer } from './server.ts';
export { openSqliteStore, type SqliteStoreOptions } from './store/sqlite.ts';
export type * from './store/types.ts';
export type { AdminTokens } from './board/tokens.ts';
export type * from './store/board-types.ts';
export { openSqliteBoardStore } from './store/sqlite-board.ts';
