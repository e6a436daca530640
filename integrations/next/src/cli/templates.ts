// Files written by `svc-next init`. Each starts with MARKER so a second run recognises its own
// files and leaves them alone (idempotent), and never overwrites a file the user wrote. The
// variable names come from the spec, through the runtime kit.
import {
  publicSettingNames,
  publicVariable,
  settingVariable,
  sharedSettingNames,
} from '@svc/runtime/kit';

export const MARKER = '// Svc: written by `svc-next init`';

export const INSTRUMENTATION = `${MARKER}. Server errors become cards (Node and edge runtimes).
import { captureRequestError, registerSvc } from '@svc/next';

export function register() {
  // Read at run time: ${settingVariable('serviceUrl')} (your Svc service), ${settingVariable('keyId')} and
  // ${settingVariable('signingSecret')} (server-only; never NEXT_PUBLIC_), ${settingVariable('environment')}, ${settingVariable('release')}.
  registerSvc({
    // Where those are unset at run time: the build's public values (Next inlines them).
    fromBuild: {
${sharedSettingNames()
  .map((name) => `      ${name}: process.env.${publicVariable('next', name)},`)
  .join('\n')}
    },
  });
}

export const onRequestError = captureRequestError;
`;

export const INSTRUMENTATION_CLIENT = `${MARKER}. Browser errors become cards.
import { registerSvcClient } from '@svc/next/client';

registerSvcClient({
  // Literal process.env.NEXT_PUBLIC_* references: Next inlines only these, at build time.
${publicSettingNames()
  .map((name) => `  ${name}: process.env.${publicVariable('next', name)},`)
  .join('\n')}
});
`;

export const GLOBAL_ERROR = `'use client';
${MARKER}. Reports errors that escape every other boundary.
import { useSvcErrorReport } from '@svc/next/client';

export default function GlobalError({
  error,
  reset,
}: {
  error: Error & { digest?: string };
  reset: () => void;
}) {
  useSvcErrorReport(error);
  return (
    <html lang="en">
      <body>
        <h2>Something went wrong.</h2>
        <button type="button" onClick={() => reset()}>
          Try again
        </button>
      </body>
    </html>
  );
}
`;
