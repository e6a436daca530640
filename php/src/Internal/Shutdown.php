<?php

declare(strict_types=1);

namespace Svc\Internal;

/**
 * Flush at shutdown (contract 8.4): one `register_shutdown_function` for the whole process drains
 * every client that holds reports. Only busy clients are held, so idle clients cost nothing and can
 * be garbage-collected. Runs after `exit()`, fatal errors and the end of the script alike.
 */
final class Shutdown
{
    /** @var array<int, \Closure(): mixed>|null busy clients' drains, by object id; null before the first */
    private static ?array $busy = null;

    public static function hold(object $client, \Closure $drain): void
    {
        if (self::$busy === null) {
            self::$busy = [];
            register_shutdown_function([self::class, 'drain']);
        }
        self::$busy[spl_object_id($client)] = $drain;
    }

    public static function release(object $client): void
    {
        unset(self::$busy[spl_object_id($client)]);
    }

    /** @internal called by PHP at shutdown */
    public static function drain(): void
    {
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
