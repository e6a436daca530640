import { existsSync, readFileSync, writeFileSync } from 'node:fs';

/**
 * Writes one bench's section of a results file: the section that starts with `<!-- name` is
 * replaced (up to the next bench's `<!-- ` marker); a new one goes last. Prints `md`.
 */
export function writeSection(file, name, md) {
  const previous = existsSync(file) ? readFileSync(file, 'utf8') : '';
  const at = previous.indexOf(`<!-- ${name}`);
  const next = at >= 0 ? previous.indexOf('<!-- ', at + 1) : -1;
  writeFileSync(
    file,
    at >= 0
      ? `${previous.slice(0, at)}${md}${next >= 0 ? `\n${previous.slice(next)}` : ''}`
      : `${previous.trimEnd()}\n\n${md}`,
  );
  console.log(md);
}
