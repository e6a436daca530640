<?php

declare(strict_types=1);

namespace Svc\Internal;

use Svc\Generated\Limits;

/**
 * Location capture (contract 4): for a Throwable description, its throw site, following
 * `getPrevious()` to the root cause; otherwise the reporting call site, the first frame outside this
 * SDK. `line_number` is always sent, except inside a compiled template view. Paths are
 * project-relative; a throw site inside `vendor/` is reported as is. A report made on the app's
 * behalf (the Monolog handler, the `svc:test` commands, inside `skippingDependencies()`) is located
 * at the first frame outside every dependency (`vendor/`, PHP's include path): where the app
 * called the logger.
 */
final class Location
{
    /** Deepest `getPrevious()` chain followed. */
    private const MAX_CAUSES = 16;

    private readonly string $sdkDir;

    private readonly CompiledViews $views;

    /** @var array<string, array{string, bool}> file => [file_name, whether a line number is sent] */
    private array $sites = [];

    /** Depth of `skippingDependencies()` calls running now. */
    private static int $viaLogger = 0;

    /**
     * Runs `$report` (a reporting call made on the app's behalf, by a logger or a framework): a
     * call site is then the app's own frame, past the logging library's and the framework's.
     */
    public static function skippingDependencies(\Closure $report): void
    {
        self::$viaLogger++;
        try {
            $report();
        } finally {
            self::$viaLogger--;
        }
    }

    public function __construct(private readonly Paths $paths)
    {
        $this->sdkDir = \dirname(__DIR__) . \DIRECTORY_SEPARATOR;
        $this->views = new CompiledViews();
    }

    /** @return array{file_name?: string, line_number?: int} */
    public function locate(mixed $description): array
    {
        if ($description instanceof \Throwable) {
            // The root cause first; a cause without a usable file falls back to the next one up.
            $chain = [];
            for ($e = $description; $e !== null && \count($chain) < self::MAX_CAUSES; $e = $e->getPrevious()) {
                if (\in_array($e, $chain, true)) {
                    break;
                }
                $chain[] = $e;
            }
            foreach (array_reverse($chain) as $e) {
                if ($e->getFile() !== '' && $e->getFile() !== 'Unknown') {
                    return $this->site($e->getFile(), $e->getLine());
                }
            }
        }
        // The first frame outside this SDK: three frames up when the app called a method itself.
        $viaLogger = self::$viaLogger > 0;
        foreach (debug_backtrace(DEBUG_BACKTRACE_IGNORE_ARGS, $viaLogger ? 60 : 12) as $frame) {
            $file = $frame['file'] ?? null;
            if ($file !== null && !str_starts_with($file, $this->sdkDir) && !($viaLogger && self::inDependency($file))) {
                return $this->site($file, $frame['line'] ?? 0);
            }
        }
        return [];
    }

    /** A file of a dependency: under a `vendor/` directory or PHP's include path (Debian's /usr/share/php). */
    private static function inDependency(string $file): bool
    {
        $file = str_replace('\\', '/', $file);
        if (str_contains($file, '/vendor/')) {
            return true;
        }
        foreach (explode(PATH_SEPARATOR, (string) get_include_path()) as $dir) {
            if ($dir !== '' && $dir !== '.' && str_starts_with($file, rtrim(str_replace('\\', '/', $dir), '/') . '/')) {
                return true;
            }
        }
        return false;
    }

    /** @return array{file_name?: string, line_number?: int} */
    private function site(string $file, int $line): array
    {
        // Code run by eval(): "/app/x.php(12) : eval()'d code" is line 12 of /app/x.php.
        if (str_ends_with($file, "eval()'d code") && preg_match('/^(.*)\\((\\d+)\\) : eval/', $file, $m) === 1) {
            [$file, $line] = [$m[1], (int) $m[2]];
        }
        [$name, $lines] = $this->sites[$file] ??= $this->fileName($file);
        return $lines && $line >= 1 ? ['file_name' => $name, 'line_number' => $line] : ['file_name' => $name];
    }

    /**
     * The `file_name` of a file, and whether its line numbers are sent (not for compiled views,
     * which name their template instead). Keeps the last 255 code points, where the file is named.
     *
     * @return array{string, bool}
     */
    private function fileName(string $file): array
    {
        $view = $this->views->source($file);
        if ($view !== null) {
            $name = str_starts_with($view, '/') || $view === $file ? $this->paths->relative($view) : $view;
            return [Text::clampStart($name, Limits::FILE_NAME_MAX), false];
        }
        return [Text::clampStart($this->paths->relative($file), Limits::FILE_NAME_MAX), true];
    }
}
