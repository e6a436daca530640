// A README's fenced blocks, for tests that run exactly what a README shows.
import { readFileSync } from 'node:fs';

/** The fenced blocks of `lang` in the file, in order. */
export function readmeBlocks(file: string, lang: string): string[] {
  const text = readFileSync(file, 'utf8');
  const fence = new RegExp(`\`\`\`${lang}\\n([\\s\\S]*?)\`\`\``, 'g');
  return [...text.matchAll(fence)].map((m) => m[1]!);
}

/** The first fenced block of `lang` that contains `marker`. */
export function readmeBlock(file: string, lang: string, marker = ''): string {
  const found = readmeBlocks(file, lang).find((block) => block.includes(marker));
  if (found === undefined)
    throw new Error(`${file}: no \`\`\`${lang} block containing "${marker}"`);
  return found;
}

/** The variables a shell block sets (`NAME=value`), sorted: what a README tells a user to give. */
export function blockVariables(block: string): string[] {
  return [...block.matchAll(/\b([A-Z][A-Z0-9_]+)=/g)].map((m) => m[1]!).sort();
}
