// `@svc/runtime/kit`: the helpers every integration shares (one home per concern): the secret
// guard, card titles, flushing with a deadline, and the global carrier. Not part of the reporting
// API; platform neutral (no node: imports), built apart from the client entries.
export { type Carrier, carrier, carrierSlot } from '../core/shared.ts';
export { OPTION_ENV } from '../generated/options.gen.ts';
export type { ReportingMethodName } from '../generated/methods.gen.ts';
export { flushWithin } from './flush.ts';
export {
  findSecretsInCode,
  findSecretVariables,
  type KeyShape,
  type KnownSecret,
  keyShapes,
  knownSecrets,
  type SecretLeak,
} from './secrets.ts';
export {
  browserPlace,
  errorName,
  errorTitle,
  maskVolatile,
  PLACES,
  stableMessage,
} from './title.ts';
