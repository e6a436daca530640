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
 *
 * Before delivering, under PHP-FPM (or LiteSpeed) the response is finished first
 * (`fastcgi_finish_request()`), so the visitor never waits for the reports; by then every other
 * shutdown function has run. Every client's drain is bounded by its `timeoutMs`, counted from the
 * same start, so the whole shutdown takes at most the largest `timeoutMs`.
 */
final class Shutdown
{
    /** @var array<int, \Closure(float): mixed> busy clients' drains, by object id */
    private static array $busy = [];

    /** A drain is registered and has not run yet. */
    private static bool $scheduled = false;

    /** @var (\Closure(): mixed)|null replaces `fastcgi_finish_request` (tests) */
    public static ?\Closure $finishRequest = null;

    /** @param \Closure(float): mixed $drain called with the shutdown's start (ms since the epoch) */
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
        if (self::$busy === []) {
            return;
        }
        self::finishResponse();
        $startedAtMs = microtime(true) * 1000;
        while (self::$busy) {
            $id = array_key_first(self::$busy);
            $drain = self::$busy[$id];
            unset(self::$busy[$id]);
            try {
                $drain($startedAtMs);
            } catch (\Throwable) {
                // Never let the SDK break the host's shutdown.
            }
        }
    }

    /** Ends the HTTP response now when the server API allows it (FPM, LiteSpeed); else nothing. */
    private static function finishResponse(): void
    {
        try {
            if (self::$finishRequest !== null) {
                (self::$finishRequest)();
            } elseif (\function_exists('fastcgi_finish_request')) {
                fastcgi_finish_request();
            } elseif (\function_exists('litespeed_finish_request')) {
                litespeed_finish_request();
            }
        } catch (\Throwable) {
            // Reports still go out; the response just waits for them.
        }
    }
}
