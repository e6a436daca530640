<?php

declare(strict_types=1);

namespace Svc\Internal;

/**
 * Flush at shutdown (contract 8.4): one `register_shutdown_function` for the whole process drains
 * every client that holds reports. When PHP shuts down, the drain first moves itself to the end of
 * the shutdown queue, so reports made by the host's own shutdown functions (a fatal-error handler
 * registered after the first report) are delivered too. Only busy clients are held, so idle clients
 * cost nothing and can be garbage-collected. Runs after `exit()`, fatal errors and the end of the
 * script alike.
 */
final class Shutdown
{
    /** @var array<int, \Closure(): mixed> busy clients' drains, by object id */
    private static array $busy = [];

    /** A drain is registered and has not run yet. */
    private static bool $scheduled = false;

    public static function hold(object $client, \Closure $drain): void
    {
        self::$busy[spl_object_id($client)] = $drain;
        if (!self::$scheduled) {
            self::$scheduled = true;
            register_shutdown_function([self::class, 'atShutdown']);
        }
    }

    public static function release(object $client): void
    {
        unset(self::$busy[spl_object_id($client)]);
    }

    /** @internal PHP calls it at shutdown: run the drain after every shutdown function registered so far. */
    public static function atShutdown(): void
    {
        register_shutdown_function([self::class, 'drain']);
    }

    /** @internal */
    public static function drain(): void
    {
        self::$scheduled = false;
        while (self::$busy) {
            $id = array_key_first(self::$busy);
            $drain = self::$busy[$id];
            unset(self::$busy[$id]);
            try {
                $drain();
            } catch (\Throwable) {
                // Never let the SDK break the host's shutdown.
            }
        }
    }
}
