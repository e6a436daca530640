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
        if (preg_match("/^(.*)\\((\\d+)\\) : eval\\(\\)'d code$/", $file, $m) === 1) {
            [$file, $line] = [$m[1], (int) $m[2]];
        }
        // File names keep their last 255 code points, where the file is named.
        $view = $this->views->source($file);
        if ($view !== null) {
            $name = str_starts_with($view, '/') || $view === $file ? $this->paths->relative($view) : $view;
            return ['file_name' => Text::clampStart($name, Limits::FILE_NAME_MAX)];
        }
        $site = ['file_name' => Text::clampStart($this->paths->relative($file), Limits::FILE_NAME_MAX)];
        if ($line >= 1) {
            $site['line_number'] = $line;
        }
        return $site;
    }
}
