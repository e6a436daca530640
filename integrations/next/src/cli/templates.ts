// Files written by `svc-next init`. Each starts with MARKER so a second run recognises its own
// files and leaves them alone (idempotent), and never overwrites a file the user wrote.

export const MARKER = '// Svc: written by `svc-next init`';

export const INSTRUMENTATION = `${MARKER}. Server errors become cards (Node and edge runtimes).
import { captureRequestError, registerSvc } from '@svc/next';

export function register() {
  // Read at run time: SERVICE_URL (your Svc service), SERVICE_KEY_ID and SERVICE_SIGNING_SECRET
  // (server-only; never NEXT_PUBLIC_). Release and environment: inlined at build by withSvc.
  registerSvc({
    release: process.env.NEXT_PUBLIC_SERVICE_RELEASE,
    environment: process.env.NEXT_PUBLIC_SERVICE_ENVIRONMENT,
  });
}

export const onRequestError = captureRequestError;
`;

export const INSTRUMENTATION_CLIENT = `${MARKER}. Browser errors become cards.
import { registerSvcClient } from '@svc/next/client';

registerSvcClient({
  // Literal process.env.NEXT_PUBLIC_* references: Next inlines only these, at build time.
  apiKey: process.env.NEXT_PUBLIC_SERVICE_API_KEY,
  serviceUrl: process.env.NEXT_PUBLIC_SERVICE_URL,
  environment: process.env.NEXT_PUBLIC_SERVICE_ENVIRONMENT,
  release: process.env.NEXT_PUBLIC_SERVICE_RELEASE,
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
