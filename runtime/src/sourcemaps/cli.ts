// `svc-sourcemaps upload <dir> --release <release> [--url-prefix <prefix>] [--keep-maps]`: the
// build integrations' upload, for any bundler's output folder (esbuild, Rollup, webpack...).
import { parseArgs } from 'node:util';
import { settingVariable } from '../kit/settings.ts';
import { type UploadResult, uploadSourceMaps } from './upload.ts';

export const USAGE = `usage: svc-sourcemaps upload <dir> [--release <release>] [--url-prefix <prefix>] [--keep-maps]

Uploads the source map of every chunk under <dir> to your Svc service, keyed by the release and
each chunk's path as your reports name it (<prefix> + its path inside <dir>), then deletes the
.map files and sourceMappingURL comments from <dir> (unless --keep-maps).

  --release     the release your client reports with (its release option); default $${settingVariable('release')}
  --url-prefix  the URL path <dir> is served under (default: the site root; e.g. /static/)
  --keep-maps   leave the maps and their comments in <dir>

Reads ${settingVariable('serviceUrl')}, ${settingVariable('keyId')} and ${settingVariable('signingSecret')} (a secret key) from the environment.
Exits 1 when not every map was uploaded.`;

/** Runs the command with `argv` (without `node` and the script); returns the exit code. */
export async function runCli(
  argv: string[],
  env: Record<string, string | undefined> = process.env,
  io: { log: (line: string) => void; error: (line: string) => void } = console,
): Promise<number> {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (error) {
    io.error(`svc-sourcemaps: ${(error as Error).message}\n\n${USAGE}`);
    return 1;
  }
  const { positionals, values } = parsed;
  if (positionals[0] !== 'upload' || positionals.length !== 2) {
    const help = positionals.length === 0 || positionals[0] === 'help';
    (help ? io.log : io.error)(USAGE);
    return help ? 0 : 1;
  }
  const release = values.release?.trim() || env[settingVariable('release')]?.trim();
  if (!release) {
    io.error(
      `svc-sourcemaps: give --release (or set ${settingVariable('release')}): the release your client reports with`,
    );
    return 1;
  }
  const result: UploadResult = await uploadSourceMaps({
    folders: [
      { dir: positionals[1]!, pathPrefix: values['url-prefix'] ?? '', strip: !values['keep-maps'] },
    ],
    release,
    env,
    log: io.log,
  });
  return result.found > 0 && result.uploaded === result.found ? 0 : 1;
}

function parse(argv: string[]) {
  return parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      release: { type: 'string' },
      'url-prefix': { type: 'string' },
      'keep-maps': { type: 'boolean' },
    },
  });
}
