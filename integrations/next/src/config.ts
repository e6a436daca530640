export { findSecretLeaks, type SecretLeak } from './config/secrets.ts';
export {
  ENVIRONMENT_ENV,
  RELEASE_ENV,
  SERVICE_URL_ENV,
  withSvc,
  type WithSvcOptions,
} from './config/with-svc.ts';
