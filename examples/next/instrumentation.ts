// Svc: written by `svc-next init`. Server errors become cards (Node and edge runtimes).
import { captureRequestError, registerSvc } from '@svc/next';

export function register() {
  // Read at run time: SERVICE_URL (your Svc service), SERVICE_KEY_ID and
  // SERVICE_SIGNING_SECRET (server-only; never NEXT_PUBLIC_), SERVICE_ENVIRONMENT, SERVICE_RELEASE.
  registerSvc({
    // Where those are unset at run time: the build's public values (Next inlines them).
    fromBuild: {
      serviceUrl: process.env.NEXT_PUBLIC_SERVICE_URL,
      encryptionPublicKey: process.env.NEXT_PUBLIC_SERVICE_ENCRYPTION_PUBLIC_KEY,
      encryptionKeyId: process.env.NEXT_PUBLIC_SERVICE_ENCRYPTION_KEY_ID,
      environment: process.env.NEXT_PUBLIC_SERVICE_ENVIRONMENT,
      release: process.env.NEXT_PUBLIC_SERVICE_RELEASE,
    },
  });
}

export const onRequestError = captureRequestError;
