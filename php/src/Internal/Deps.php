<?php

declare(strict_types=1);

namespace Svc\Internal;

/**
 * The internal test seam (not a user option): every network call, clock, sleep, random draw,
 * log line and environment read of a client goes through these, so tests never patch globals.
 *
 * @internal
 */
final class Deps
{
    /**
     * @param \Closure(): float|null $now milliseconds since the epoch
     * @param \Closure(int): void|null $sleep waits this many milliseconds
     * @param \Closure(): float|null $random a number in [0, 1)
     * @param \Closure(string, string): void|null $logger level ('debug', 'info', 'warning') and line
     * @param \Closure(string): ?string|null $env an environment variable, null when unset
     * @param string|null $entryScript the entry script project-root detection starts from
     * @param bool $shutdownHook flush at `register_shutdown_function`
     * @param string|false|null $outageNotes the directory of the notes processes share about a service
     *        that does not take reports (`OutageNote`): null the system's temporary directory, false none
     */
    public function __construct(
        public readonly ?Transport $transport = null,
        public readonly ?\Closure $now = null,
        public readonly ?\Closure $sleep = null,
        public readonly ?\Closure $random = null,
        public readonly ?\Closure $logger = null,
        public readonly ?\Closure $env = null,
        public readonly ?string $entryScript = null,
        public readonly bool $shutdownHook = true,
        public readonly string|false|null $outageNotes = null,
    ) {
    }

    /** The process environment as PHP apps see it: `$_SERVER`, `$_ENV`, then `getenv()`. */
    public static function environment(string $name): ?string
    {
        foreach ([$_SERVER[$name] ?? null, $_ENV[$name] ?? null, getenv($name)] as $value) {
            if (\is_string($value) && $value !== '') {
                return $value;
            }
        }
        return null;
    }
}
