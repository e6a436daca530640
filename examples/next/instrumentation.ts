// Svc: written by `svc-next init`. Server errors become cards (Node and edge runtimes).
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
