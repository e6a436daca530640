// Build-time guard: a value that reaches client code is public. Next puts two kinds of variables
// into browser bundles: every `NEXT_PUBLIC_*` variable and every entry of `next.config` `env`.
// None of them may carry a secret; the rule is the runtime kit's one secret guard.
import { findSecretVariables, knownSecrets, type SecretLeak } from '@svc/runtime/kit';

export type { SecretLeak };

/** Lists every client-visible variable that would carry a server-only credential. */
export function findSecretLeaks(
  processEnv: Record<string, string | undefined>,
  configEnv: Record<string, string | undefined> = {},
): SecretLeak[] {
  const known = knownSecrets(processEnv);
  return [
    ...findSecretVariables(
      processEnv,
      (name) => name.startsWith('NEXT_PUBLIC_'),
      known,
      (name) => `process.env.${name}`,
    ),
    ...findSecretVariables(
      configEnv,
      () => true,
      known,
      (name) => `next.config env.${name}`,
    ),
  ];
}
