<?php

declare(strict_types=1);

namespace Svc\Internal;

use Svc\Generated\Limits;

/**
 * Location capture (contract 4): for a Throwable description, its throw site, following
 * `getPrevious()` to the root cause; otherwise the reporting call site, the first frame outside this
 * SDK. `line_number` is always sent, except inside a compiled template view. Paths are
 * project-relative; a throw site inside `vendor/` is reported as is.
 */
final class Location
{
    /** Deepest `getPrevious()` chain followed. */
    private const MAX_CAUSES = 16;

    private readonly string $sdkDir;

    private readonly CompiledViews $views;

    /** @var array<string, array{string, bool}> file => [file_name, whether a line number is sent] */
    private array $sites = [];

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
        foreach (debug_backtrace(DEBUG_BACKTRACE_IGNORE_ARGS, 12) as $frame) {
            $file = $frame['file'] ?? null;
            if ($file !== null && !str_starts_with($file, $this->sdkDir)) {
                return $this->site($file, $frame['line'] ?? 0);
            }
        }
        return [];
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
