<?php

declare(strict_types=1);

namespace Svc\Integration;

/**
 * The Throwables an integration has reported, held weakly: a framework reports an exception
 * through its handler and then logs it, and the Monolog handler skips a record whose `exception`
 * is marked here, so one error makes one report. Also stops a Throwable seen twice (the kernel
 * and the console listener) from being reported twice.
 *
 * @internal
 */
final class Reported
{
    /** @var \WeakMap<\Throwable, true>|null */
    private static ?\WeakMap $seen = null;

    /** Marks `$error`; false when it was marked already. */
    public static function mark(\Throwable $error): bool
    {
        self::$seen ??= new \WeakMap();
        if (isset(self::$seen[$error])) {
            return false;
        }
        self::$seen[$error] = true;
        return true;
    }

    public static function has(\Throwable $error): bool
    {
        return self::$seen !== null && isset(self::$seen[$error]);
    }
}
