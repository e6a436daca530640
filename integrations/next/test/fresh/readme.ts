// The steps of the README's setup, read from the README itself: the fresh-app test runs what the
// README shows, so a README edit that breaks a user's app breaks the test.
import { readFileSync } from 'node:fs';

const README = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

/** The fenced blocks of the README, in order. */
function blocks(lang: string): string[] {
  const fence = new RegExp(`\`\`\`${lang}\\n([\\s\\S]*?)\`\`\``, 'g');
  return [...README.matchAll(fence)].map((m) => m[1]!);
}

function block(lang: string, marker: string): string {
  const found = blocks(lang).find((b) => b.includes(marker));
  if (!found) throw new Error(`README.md: no \`\`\`${lang} block containing "${marker}"`);
  return found;
}

/** Code lines of a block: no blanks, no comment-only lines, trailing comments cut. */
function codeLines(text: string): string[] {
  return text
    .split('\n')
    .map((line) => line.replace(/\s+#\s.*$/, ''))
    .filter((line) => line.trim() !== '' && !/^\s*(\/\/|#)/.test(line));
}

export const readme = {
  text: README,
  /** The setup block's commands: create-next-app, install, init. */
  setupCommands: () => codeLines(block('sh', 'npx create-next-app@')),
  /** The two lines to add to next.config.ts: the import and the wrapped export. */
  configLines() {
    const lines = codeLines(block('ts', 'withSvc(nextConfig)'));
    const importLine = lines.find((l) => l.startsWith('import '));
    const exportLine = lines.find((l) => l.startsWith('export default withSvc('));
    if (!importLine || !exportLine) throw new Error('README.md: next.config.ts lines not found');
    return { importLine, exportLine };
  },
  /** The `app/**\/error.tsx` example. */
  errorBoundary: () => block('tsx', 'useSvcErrorReport(error)'),
  /** `NAME=value` assignments of the run block, by name. */
  variables(): string[] {
    const run = block('sh', 'SERVICE_SIGNING_SECRET=');
    return [...run.matchAll(/\b([A-Z][A-Z0-9_]+)=/g)].map((m) => m[1]!);
  },
};
