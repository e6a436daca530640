export { type Admin, AdminError, createAdmin } from './admin.ts';
export { signedPayload, hmacHex, SIGNED_PATH } from './auth/signature.ts';
export type { SmtpOptions } from './mail/sender.ts';
export { type RunningServer, type ServerOptions, startServer } from './server.ts';
export { openSqliteStore, type SqliteStoreOptions } from './store/sqlite.ts';
export type * from './store/types.ts';
