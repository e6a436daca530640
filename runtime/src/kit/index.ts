// `@svc/runtime/kit`: the helpers every integration shares (one home per concern): the variables
// they read, how each kind of failure is reported, card titles, the window listeners, the secret
// guard, flushing with a deadline, a server process's crash handlers, the redaction of what they
// log (the runtime's own), and the global carrier.
// Not part of the reporting API; platform neutral (no node: imports), built apart from the client
// entries.
export { redact } from '../core/debug-format.ts';
export { type Carrier, carrier, carrierSlot } from '../core/shared.ts';
export {
  FAILURES,
  type FailureKindName,
  FRAMEWORKS,
  type FrameworkName,
  PUBLIC_PREFIXES,
} from '../generated/integrations.gen.ts';
export type { ReportingMethodName } from '../generated/methods.gen.ts';
export {
  OPTION_DEFAULTS,
  OPTION_ENV,
  PUBLIC_OPTIONS,
  SERVICE_URL_ENV,
  type SvcContractOptions,
} from '../generated/options.gen.ts';
export {
  type FailureReport,
  type FailureWhere,
  failurePlace,
  failureReport,
  isReported,
  type ReportedKind,
} from './failures.ts';
export { flushWithin } from './flush.ts';
export { installProcessHandlers, type ProcessHandlerOptions } from './process.ts';
export {
  type InitShared,
  initServerIntegration,
  type ServerIntegrationOptions,
  sharedServerClient,
} from './server-integration.ts';
export { consoleLine, type ProcessLike, rejectionMode } from './process-like.ts';
export { claimCrash, noteRequestReport, reportedAsCrash, reportedByRequest } from './reported.ts';
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
  copiedSettingNames,
  firstSet,
  type PublicClientOptions,
  type PublicFramework,
  type PublicSettingName,
  publicSettingNames,
  publicVariable,
  readBrowserSettings,
  readServerSettings,
  serverClientConfig,
  type SettingName,
  sharedSettingNames,
  type Settings,
  settingNames,
  settingVariable,
} from './settings.ts';
export { errorName, errorTitle, maskVolatile, stableMessage } from './title.ts';
export {
  type BrowserIntegrationOptions,
  type ErrorTarget,
  initBrowserIntegration,
  listenWindowErrors,
  reportWindowErrors,
} from './window.ts';
