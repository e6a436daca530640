// The build's secret guard (the runtime kit's rule): nothing a browser downloads may hold a server
// secret: client chunks, HTML/JS/CSS assets, and the maps' `sourcesContent` (dead code included).
import {
  findSecretsInCode,
  type KnownSecret,
  type PublicFramework,
  publicVariable,
} from '@svc/runtime/kit';

interface BundleItem {
  type: 'chunk' | 'asset';
  fileName: string;
  code?: string;
  source?: string | Uint8Array;
  map?: { sourcesContent?: (string | null)[] } | null;
}

/** The files of a client bundle a browser can download, as text. */
function clientFiles(bundle: Record<string, BundleItem>): [string, string][] {
  const files: [string, string][] = [];
  for (const item of Object.values(bundle)) {
    if (item.type === 'chunk') {
      files.push([item.fileName, item.code ?? '']);
      const sources = item.map?.sourcesContent?.join('\n');
      if (sources) files.push([`${item.fileName}.map`, sources]);
    } else if (/\.(html|js|mjs|css)$/.test(item.fileName) && typeof item.source === 'string') {
      files.push([item.fileName, item.source]);
    }
  }
  return files;
}

/** The build's stop message for the first file that would ship a secret, or undefined. */
export function findBundleLeak(
  bundle: Record<string, BundleItem>,
  forbidden: KnownSecret[],
  publishablePrefix: string,
  framework: PublicFramework = 'vite',
): string | undefined {
  for (const [fileName, text] of clientFiles(bundle)) {
    const leaks = findSecretsInCode(text, forbidden);
    if (leaks.length === 0) continue;
    return (
      `[svc] Build stopped: ${leaks.join(' and ')} would be shipped in the client file ` +
      `${fileName}. Secret keys belong on the server; browser code uses a ` +
      `publishable key (${publicVariable(framework, 'apiKey')}=${publishablePrefix}...).`
    );
  }
  return undefined;
}
