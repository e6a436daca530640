// Names of the debug channel's messages. The start-up code logs a name (a small number once built),
// and the texts live in the lazy formatting chunk (`MESSAGES` of ./debug-format.ts), so a client
// with `debug` off never carries them. Warnings are shown whether or not `debug` is on.

/** Warning: an `apiKey` given with `keyId` + `signingSecret` is ignored. */
export const API_KEY_IGNORED = 0;
/** Warning: only one of `keyId` and `signingSecret` is set. */
export const KEY_PAIR_INCOMPLETE = 1;
/** Warning: no credentials; the client is disabled. */
export const NO_CREDENTIALS = 2;
/** Warning: `encryptionPublicKey` is not base64 of 32 bytes; the client is disabled. */
export const BAD_ENCRYPTION_KEY = 3;
/** Warning: the sealing or signing chunk failed to load. */
export const SECURE_LOAD_FAILED = 4;
/** Debug: the transport chunk failed to load (retried by the next send). */
export const TRANSPORT_LOAD_FAILED = 5;
/** Info: `logLocally` shows the payload instead of sending it. */
export const LOGGED_LOCALLY = 6;
/** Debug: a client was created (its state and options follow). */
export const CLIENT_CREATED = 7;
/** Debug: `beforeSend` threw; the report is dropped. */
export const BEFORE_SEND_THREW = 8;
/** Debug: the queue is full; the newest report is dropped. */
export const QUEUE_FULL = 9;
/** Debug: a reporting call failed inside the SDK. */
export const REPORT_FAILED = 10;
/** Debug: the outcome counts of a flush. */
export const FLUSH_RESULT = 11;
/** Warning: the service address is not an absolute http(s) URL; the client is disabled. */
export const BAD_SERVICE_URL = 12;
/** Warning (delivery): the service host name does not resolve. */
export const HOST_NOT_FOUND = 13;
/** Warning (delivery): connection refused, another network failure, or no answer in time. */
export const UNREACHABLE = 14;
/** Warning (delivery): the service refused the credentials (401, 403). */
export const CREDENTIALS_REFUSED = 15;
/** Warning (delivery): no Svc service at the address (404, 405). */
export const NO_SERVICE_THERE = 16;

/** Warning (delivery): reports given up at process exit (the exit flush's deadline). */
export const EXIT_GAVE_UP = 17;
/** Warning (browsers): reports dropped from the offline queue, which keeps the newest ones. */
export const OFFLINE_DROPPED = 18;

/** One of the names above. */
export type MessageName = number;
