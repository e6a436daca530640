// Every PHP artifact, for generate.ts: the exceptions (php/src/Exception/), the severity and
// priority enums (php/src/Enum/) and the methods, constants and the integrations' failure table
// (php/src/Generated/). Already finished (header included; no formatter runs on PHP).
import type { Model } from '../../model.ts';
import type { Artifact } from '../common.ts';
import { emitPhpConstants } from './constants.ts';
import { emitPhpEnums, PHP_ENUM_DIR } from './enums.ts';
import { emitPhpErrors, PHP_EXCEPTION_DIR } from './errors.ts';
import { emitPhpIntegrations } from './integrations.ts';
import { emitPhpMethods, PHP_GENERATED_DIR } from './methods.ts';

/** Folders whose `*.gen.php` files belong to the generator. */
export const PHP_DIRS = [PHP_ENUM_DIR, PHP_EXCEPTION_DIR, PHP_GENERATED_DIR];

export function emitPhp(model: Model): Artifact[] {
  return [
    ...emitPhpEnums(model),
    ...emitPhpErrors(model),
    ...emitPhpMethods(model),
    ...emitPhpConstants(model),
    emitPhpIntegrations(model),
  ];
}
