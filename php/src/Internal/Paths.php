<?php

declare(strict_types=1);

namespace Svc\Internal;

/**
 * Project-relative paths (contract 4: never absolute machine paths). The root is the `projectRoot`
 * option, else the directory holding `composer.json` above the entry script (the directory holding
 * `vendor/` when the entry script lives in it, such as `vendor/bin/phpunit`), else the entry
 * script's directory. A path in a dependency is cut at its last `vendor/` segment; a path outside
 * the root inside PHP's include path (a distribution's packages: Debian's /usr/share/php) is named
 * as PHP finds it there (`Illuminate/Container/Container.php`); any other path outside the root
 * becomes `../...`.
 */
final class Paths
{
    /** @var array<string, string> */
    private array $cache = [];

    private readonly string $root;

    public function __construct(?string $projectRoot, ?string $entryScript)
    {
        $this->root = self::normalise($projectRoot ?? self::detectRoot($entryScript));
    }

    public function root(): string
    {
        return $this->root;
    }

    /** The entry script of this process: the front controller or the CLI script. */
    public static function entryScript(): ?string
    {
        $script = $_SERVER['SCRIPT_FILENAME'] ?? null;
        if (!\is_string($script) || $script === '') {
            $script = get_included_files()[0] ?? null;
        }
        if (!\is_string($script) || $script === '') {
            return null;
        }
        $real = realpath($script);
        return $real === false ? $script : $real;
    }

    public static function detectRoot(?string $entryScript): string
    {
        if ($entryScript === null) {
            return (string) getcwd();
        }
        $dir = \dirname(self::normalise($entryScript));
        $vendor = strpos($dir . '/', '/vendor/');
        if ($vendor !== false) {
            return substr($dir, 0, $vendor) ?: '/';
        }
        for ($probe = $dir; ; $probe = \dirname($probe)) {
            if (is_file($probe . '/composer.json')) {
                return $probe;
            }
            if (\dirname($probe) === $probe) {
                return $dir;
            }
        }
    }

    /** `$path` relative to the root, with forward slashes (`phar://` and Windows paths included). */
    public function relative(string $path): string
    {
        return $this->cache[$path] ??= $this->compute($path);
    }

    private function compute(string $path): string
    {
        if ($path === '' || $path === 'Unknown' || str_starts_with($path, '[')) {
            return $path;
        }
        $path = self::normalise(preg_replace('#^phar://#', '', $path) ?? $path);
        $vendor = strrpos('/' . $path, '/vendor/');
        if ($vendor !== false) {
            return substr($path, $vendor);
        }
        if ($path === $this->root) {
            return '.';
        }
        if (str_starts_with($path, rtrim($this->root, '/') . '/')) {
            return substr($path, \strlen(rtrim($this->root, '/')) + 1);
        }
        if (!str_starts_with($path, '/')) {
            return $path;
        }
        foreach (explode(PATH_SEPARATOR, (string) get_include_path()) as $dir) {
            $dir = self::normalise($dir);
            if (str_starts_with($dir, '/') && $dir !== '/' && str_starts_with($path, $dir . '/')) {
                return substr($path, \strlen($dir) + 1);
            }
        }
        $from = array_values(array_filter(explode('/', $this->root), 'strlen'));
        $to = array_values(array_filter(explode('/', $path), 'strlen'));
        $common = 0;
        while ($common < \count($from) && $common < \count($to) && $from[$common] === $to[$common]) {
            $common++;
        }
        return str_repeat('../', \count($from) - $common) . implode('/', \array_slice($to, $common));
    }

    /** Forward slashes, no drive letter case issues, no trailing slash (except `/`). */
    private static function normalise(string $path): string
    {
        $path = str_replace('\\', '/', $path);
        if (preg_match('#^[A-Za-z]:/#', $path) === 1) {
            $path = '/' . $path;
        }
        return $path === '/' ? $path : rtrim($path, '/');
    }
}
