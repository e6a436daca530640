// Which Debian PHP packages this machine has, for the suites that need them: php itself with its
// extensions, phpunit, and the framework packages (Laravel 8, Symfony 5.4 with Messenger, Yaml and
// Dotenv, Monolog 2). Each suite prints one line naming what is missing and skips.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';

/** Debian package => a file PHP finds on its include path when the package is installed. */
export const FRAMEWORK_PACKAGES = {
  'php-laravel-framework': 'Illuminate/autoload.php',
  'php-symfony-framework-bundle': 'Symfony/Bundle/FrameworkBundle/autoload.php',
  'php-symfony-messenger': 'Symfony/Component/Messenger/autoload.php',
  'php-symfony-yaml': 'Symfony/Component/Yaml/autoload.php',
  'php-symfony-dotenv': 'Symfony/Component/Dotenv/autoload.php',
  'php-monolog': 'Monolog/autoload.php',
} as const;
/** Debian packages of PHP extensions beyond the core's: package => extension. */
const EXTENSION_PACKAGES = { 'php-sqlite3': 'pdo_sqlite' } as const;

/** Debian packages of programs (the FPM test): package => whether it is installed. */
const PROGRAM_PACKAGES = {
  'php-fpm': () => readdirSync('/usr/sbin').some((name) => name.startsWith('php-fpm')),
  'libfcgi-bin': () => existsSync('/usr/bin/cgi-fcgi'),
} as const;
export type FrameworkPackage =
  keyof typeof FRAMEWORK_PACKAGES | keyof typeof EXTENSION_PACKAGES | keyof typeof PROGRAM_PACKAGES;

/** The PHPUnit groups of tests/Frameworks and the Debian packages each one needs. */
export const GROUPS: Record<string, FrameworkPackage[]> = {
  laravel: ['php-laravel-framework', 'php-monolog', 'php-sqlite3'],
  symfony: [
    'php-symfony-framework-bundle',
    'php-symfony-messenger',
    'php-symfony-yaml',
    'php-symfony-dotenv',
    'php-monolog',
  ],
  monolog: ['php-monolog'],
  fpm: ['php-fpm', 'libfcgi-bin'],
};

/** The apt-get line that installs everything the PHP suites use. */
export const APT_INSTALL = `apt-get install -y php-cli php-curl php-mbstring phpunit ${[...Object.keys(FRAMEWORK_PACKAGES), ...Object.keys(EXTENSION_PACKAGES), ...Object.keys(PROGRAM_PACKAGES)].join(' ')}`;

/** Debian packages missing for the core PHP suite (php with curl, mbstring and sodium; phpunit). */
export function missingCore(): string[] {
  const probe = spawnSync(
    'php',
    ['-r', 'echo json_encode(array_map("extension_loaded", ["curl", "mbstring", "sodium"]));'],
    { encoding: 'utf8' },
  );
  const phpunit = spawnSync('phpunit', ['--version'], { encoding: 'utf8' }).status === 0;
  if (probe.status !== 0)
    return ['php-cli', 'php-curl', 'php-mbstring', ...(phpunit ? [] : ['phpunit'])];
  const [curl, mbstring, sodium] = JSON.parse(probe.stdout) as boolean[];
  return [
    ...(sodium ? [] : ['php-cli (with sodium)']),
    ...(curl ? [] : ['php-curl']),
    ...(mbstring ? [] : ['php-mbstring']),
    ...(phpunit ? [] : ['phpunit']),
  ];
}

/** The framework and program packages that are not installed (all of them without php). */
export function missingFrameworks(): FrameworkPackage[] {
  const programs = (Object.keys(PROGRAM_PACKAGES) as (keyof typeof PROGRAM_PACKAGES)[]).filter(
    (name) => !PROGRAM_PACKAGES[name](),
  );
  const names = Object.keys(FRAMEWORK_PACKAGES) as (keyof typeof FRAMEWORK_PACKAGES)[];
  const extensions = Object.keys(EXTENSION_PACKAGES) as (keyof typeof EXTENSION_PACKAGES)[];
  const probe = spawnSync(
    'php',
    [
      '-r',
      'echo json_encode([array_map(fn ($f) => stream_resolve_include_path($f) !== false, json_decode($argv[1])), array_map("extension_loaded", json_decode($argv[2]))]);',
      JSON.stringify(Object.values(FRAMEWORK_PACKAGES)),
      JSON.stringify(Object.values(EXTENSION_PACKAGES)),
    ],
    { encoding: 'utf8' },
  );
  if (probe.status !== 0) return [...names, ...extensions, ...programs];
  const [files, loaded] = JSON.parse(probe.stdout) as [boolean[], boolean[]];
  return [
    ...names.filter((_, i) => !files[i]),
    ...extensions.filter((_, i) => !loaded[i]),
    ...programs,
  ];
}
