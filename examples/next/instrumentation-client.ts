// Svc: written by `svc-next init`. Browser errors become cards.
import { registerSvcClient } from '@svc/next/client';

registerSvcClient({
  // Literal process.env.NEXT_PUBLIC_* references: Next inlines only these, at build time.
  serviceUrl: process.env.NEXT_PUBLIC_SERVICE_URL,
  apiKey: process.env.NEXT_PUBLIC_SERVICE_API_KEY,
  encryptionPublicKey: process.env.NEXT_PUBLIC_SERVICE_ENCRYPTION_PUBLIC_KEY,
  encryptionKeyId: process.env.NEXT_PUBLIC_SERVICE_ENCRYPTION_KEY_ID,
  environment: process.env.NEXT_PUBLIC_SERVICE_ENVIRONMENT,
  release: process.env.NEXT_PUBLIC_SERVICE_RELEASE,
});
