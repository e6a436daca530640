export { type Admin, AdminError, createAdmin } from './admin.ts';
export { signedPayload, hmacHex, SIGNED_PATH } from './auth/signature.ts';
export type { SmtpOptions } from './mail/sender.ts';
export { type RunningServer, type ServerOptions, startServer } from './server.ts';
export {
  openAlertStore,
  openBoardStore,
  openSourceMapStore,
  openStore,
  type OpenStoreOptions,
  type StoreLocation,
} from './store/open.ts';
export type * from './store/types.ts';
export type { AdminTokens } from './board/tokens.ts';
export type * from './store/board-types.ts';
export type { SourceMapOptions } from './mapping/options.ts';
export type * from './store/sourcemap-types.ts';
