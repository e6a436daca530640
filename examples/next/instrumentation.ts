// Svc: written by `svc-next init`. Server errors become cards (Node and edge runtimes).
import { captureRequestError, registerSvc } from '@svc/next';

export function register() {
  // Reads SERVICE_KEY_ID and SERVICE_SIGNING_SECRET (server-only; never NEXT_PUBLIC_).
  registerSvc();
}

export const onRequestError = captureRequestError;
