// What is deployed keeps no map: the `sourceMappingURL` comments of its scripts and stylesheets go
// (an inline `data:` map with them), and so does every `.map` file. Debug ID comments stay: they
// name a build, not its source.
import { readFile, rm, writeFile } from 'node:fs/promises';

/** The trailing map comment of a script (`//# sourceMappingURL=...`) or stylesheet (`/*# ... *\/`). */
const COMMENT =
  /(?:\n|^)[ \t]*(?:\/\/[#@][ \t]*sourceMappingURL=[^\n]*|\/\*[#@][ \t]*sourceMappingURL=[^*]*\*\/)[ \t]*(?=\n|$)/g;

/** `code` without its map comments (only whole-line comments, so strings in code are kept). */
export function withoutMapComment(code: string): string {
  return code.replace(COMMENT, '');
}

/** Removes the map comments of `files` and deletes `mapFiles`; returns how many maps were deleted. */
export async function stripMaps(files: string[], mapFiles: string[]): Promise<number> {
  for (const file of files) {
    const code = await readFile(file, 'utf8');
    const stripped = withoutMapComment(code);
    if (stripped !== code) await writeFile(file, stripped);
  }
  for (const file of mapFiles) await rm(file, { force: true });
  return mapFiles.length;
}
