<?php

declare(strict_types=1);

namespace Svc\Internal;

/**
 * Compiled template views (Blade, Twig, Smarty, Latte caches). Their line numbers are lines of
 * generated code, so a location inside one carries no `line_number` (contract 4), and its
 * `file_name` names the template it was compiled from when the compiled file records it.
 */
final class CompiledViews
{
    /** Per engine: the cache path pattern, and where the compiled file names its source. */
    private const ENGINES = [
        'blade' => ['#/storage/framework/views/[0-9a-f]{32,64}\.php$#', '#/\*\*PATH (.+?) ENDPATH\*\*/#', 'tail'],
        'twig' => ['#/[0-9a-f]{2}/[0-9a-f]{32,64}\.php$#', '#^/\* (.+?) \*/$#m', 'head'],
        'smarty' => ['#/templates_c/[^/]+\.php$#', "#compiled from '(?:file:)?(.+?)'#", 'head'],
        'latte' => ['#\.latte--[0-9a-f]+\.php$#', '#/\*\* source: (.+?) \*/#', 'head'],
    ];

    /** @var array<string, string|false> compiled path => source (false: not a compiled view) */
    private array $cache = [];

    /**
     * The template a compiled view was made from (an absolute path or a template name), the
     * compiled path itself when the source is not recorded, or null when `$path` is not a view.
     */
    public function source(string $path): ?string
    {
        $found = $this->cache[$path] ??= $this->lookUp($path);
        return $found === false ? null : $found;
    }

    private function lookUp(string $path): string|false
    {
        $normal = str_replace('\\', '/', $path);
        foreach (self::ENGINES as [$pathPattern, $sourcePattern, $end]) {
            if (preg_match($pathPattern, $normal) !== 1) {
                continue;
            }
            $text = self::read($path, $end);
            return preg_match($sourcePattern, $text, $m) === 1 ? trim($m[1]) : $path;
        }
        return false;
    }

    /** The first or last 4 KiB of the file ('' when unreadable). */
    private static function read(string $path, string $end): string
    {
        $size = @filesize($path);
        if ($size === false) {
            return '';
        }
        $offset = $end === 'tail' ? max(0, $size - 4096) : 0;
        return (string) @file_get_contents($path, false, null, $offset, 4096);
    }
}
