// Runs every inspector over one spec document and assembles the (not yet validated) model.
import type { Model } from '../model.ts';
import { readClient, readKeys, readOptions } from './client.ts';
import type { Doc } from './document.ts';
import { readErrorMapping } from './errors.ts';
import { readIntegrations } from './integrations.ts';
import {
  readPlans,
  readQuotaWarnings,
  readRuntimeLimits,
  readServerLimits,
  readSourceMapLimits,
  readUntitledTitle,
} from './limits.ts';
import { readMethodTable } from './methods.ts';
import { readSchemas, readService } from './service.ts';

export function inspect(document: Doc, options: { server?: string } = {}): Model {
  const methods = readMethodTable(document);
  return {
    methods,
    errors: readErrorMapping(document),
    limits: readRuntimeLimits(document),
    untitledTitle: readUntitledTitle(document),
    serverLimits: readServerLimits(document),
    plans: readPlans(document),
    quotaWarnings: readQuotaWarnings(document),
    service: readService(document, options.server),
    sourceMaps: readSourceMapLimits(document),
    options: readOptions(document),
    client: readClient(document),
    keys: readKeys(document),
    integrations: readIntegrations(document, methods),
    schemas: readSchemas(document),
    document,
  };
}
