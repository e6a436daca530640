<?php

declare(strict_types=1);

namespace Svc\Tests\Unit;

use PHPUnit\Framework\TestCase;

/**
 * The package: zero Composer dependencies (the frameworks and ext-sodium are suggestions), a valid
 * composer.json with Laravel's auto-discovery, and its own autoloader loading every class: the core
 * with nothing else loaded, the framework integrations beside Debian's framework packages.
 */
final class PackageTest extends TestCase
{
    private const ROOT = __DIR__ . '/../..';

    /** @return array<string, string> class name => file, for every file under src/ */
    private static function classes(): array
    {
        $out = [];
        $files = new \RecursiveIteratorIterator(new \RecursiveDirectoryIterator(self::ROOT . '/src', \FilesystemIterator::SKIP_DOTS));
        foreach ($files as $file) {
            if (str_ends_with($file->getFilename(), '.php')) {
                $relative = substr($file->getPathname(), \strlen(self::ROOT . '/src/'), -4);
                $out['Svc\\' . str_replace('/', '\\', preg_replace('/\.gen$/', '', $relative))] = $relative;
            }
        }
        ksort($out);
        return $out;
    }

    public function testComposerJsonDeclaresNoPackageDependencyOnlyPhpAndExtensions(): void
    {
        $composer = json_decode((string) file_get_contents(self::ROOT . '/composer.json'), true, 512, JSON_THROW_ON_ERROR);
        self::assertSame('svc/svc-php', $composer['name']);
        self::assertSame('library', $composer['type']);
        self::assertSame('MIT', $composer['license']);
        self::assertSame(['php' => '>=8.2', 'ext-curl' => '*', 'ext-json' => '*', 'ext-mbstring' => '*'], $composer['require']);
        self::assertSame(['ext-sodium', 'laravel/framework', 'symfony/framework-bundle', 'monolog/monolog'], array_keys($composer['suggest']));
        self::assertArrayNotHasKey('require-dev', $composer);
        // Laravel's package auto-discovery names classes that exist.
        self::assertSame(['providers' => ['Svc\\Laravel\\SvcServiceProvider'], 'aliases' => ['Svc' => 'Svc\\Laravel\\Facades\\Svc']], $composer['extra']['laravel']);
        foreach ([...$composer['extra']['laravel']['providers'], ...array_values($composer['extra']['laravel']['aliases'])] as $class) {
            self::assertArrayHasKey($class, self::classes());
        }
        self::assertSame(['Svc\\' => 'src/'], $composer['autoload']['psr-4']);
        // Composer's PSR-4 finds hand-written classes; its classmap must cover every generated file.
        foreach (self::classes() as $class => $relative) {
            $generated = str_ends_with($relative, '.gen');
            if ($generated) {
                self::assertContains(\dirname("src/{$relative}") . '/', $composer['autoload']['classmap'], $class);
            } else {
                self::assertFileExists(self::ROOT . '/src/' . str_replace('\\', '/', substr($class, 4)) . '.php');
            }
        }
    }

    /** Classes that need a framework or Monolog: src/Laravel, src/Symfony, src/Monolog. */
    private static function needsFramework(string $class): bool
    {
        return preg_match('/^Svc\\\\(Laravel|Symfony|Monolog)\\\\/', $class) === 1;
    }

    /** @param list<string> $classes @param list<string> $autoloaders */
    private static function loadInFreshProcess(array $classes, array $autoloaders): void
    {
        $script = 'foreach (json_decode($argv[2]) as $a) { require_once $a; }'
            . 'require ' . var_export(realpath(self::ROOT . '/autoload.php'), true) . ';'
            . 'foreach (json_decode($argv[1]) as $c) { if (!class_exists($c) && !trait_exists($c) && !interface_exists($c)) { echo "missing $c\n"; } }'
            . 'echo "loaded ", count(get_declared_classes()) > 0 ? "ok" : "none";';
        exec(PHP_BINARY . ' -r ' . escapeshellarg($script) . ' ' . escapeshellarg(json_encode($classes)) . ' ' . escapeshellarg(json_encode($autoloaders)) . ' 2>&1', $output, $code);
        self::assertSame(0, $code, implode("\n", $output));
        self::assertSame(['loaded ok'], $output);
    }

    public function testTheOwnAutoloaderLoadsEveryCoreClassInAFreshProcessWithNothingElse(): void
    {
        $classes = array_values(array_filter(array_keys(self::classes()), static fn (string $c): bool => !self::needsFramework($c)));
        self::assertGreaterThan(35, \count($classes));
        self::loadInFreshProcess($classes, []);
    }

    /**
     * @group laravel
     * @group symfony
     * @group monolog
     */
    public function testTheFrameworkIntegrationsLoadBesideDebiansFrameworkPackages(): void
    {
        $autoloaders = array_map('stream_resolve_include_path', ['Illuminate/autoload.php', 'Symfony/Bundle/FrameworkBundle/autoload.php', 'Symfony/Component/Messenger/autoload.php', 'Monolog/autoload.php']);
        if (\in_array(false, $autoloaders, true)) {
            self::markTestSkipped('needs php-laravel-framework, php-symfony-framework-bundle, php-symfony-messenger and php-monolog');
        }
        $classes = array_values(array_filter(array_keys(self::classes()), self::needsFramework(...)));
        self::assertGreaterThanOrEqual(10, \count($classes));
        self::loadInFreshProcess($classes, $autoloaders);
    }

    public function testNoSourceFileUsesAnythingBeyondTheDeclaredExtensions(): void
    {
        $functions = [];
        foreach (self::classes() as $relative) {
            $source = (string) file_get_contents(self::ROOT . "/src/{$relative}.php");
            preg_match_all('/\b(curl_\w+|sodium_\w+|mb_\w+|json_\w+|hash\w*|preg_\w+)\(/', $source, $m);
            $functions = array_merge($functions, $m[1]);
        }
        foreach (array_unique($functions) as $function) {
            self::assertTrue(\function_exists($function), $function);
            $extension = (new \ReflectionFunction($function))->getExtensionName();
            self::assertContains($extension, ['curl', 'sodium', 'mbstring', 'json', 'hash', 'pcre', 'standard', 'Core'], $function);
        }
    }
}
