// Test helpers: the real spec and the fixture spec as fresh objects.
import { fileURLToPath } from 'node:url';
import { SPEC_PATH } from '../src/generate.ts';
import { type Doc, loadDocument } from '../src/inspect/document.ts';

export const FIXTURE_SPEC = fileURLToPath(
  new URL('./fixtures/fifth-severity.yaml', import.meta.url),
);

export const loadSpec = (): Promise<Doc> => loadDocument(SPEC_PATH);
export const loadFixture = (): Promise<Doc> => loadDocument(FIXTURE_SPEC);
