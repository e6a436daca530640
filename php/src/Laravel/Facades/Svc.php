<?php

declare(strict_types=1);

namespace Svc\Laravel\Facades;

use Illuminate\Support\Facades\Facade;
use Svc\Client;
use Svc\FlushResult;
use Svc\Integration\ClientFactory;
use Svc\Testing\FakeClient;

/**
 * The `Svc` facade of the container's `Svc\Client`: `Svc::major('Checkout failed', $e)`.
 * `Svc::fake()` swaps in a {@see FakeClient} for your tests and returns it.
 *
 * @method static void critical(string $title, string|\Throwable|null $description = null, list<string>|string|null $tags = null)
 * @method static void criticalLow(string $title, string|\Throwable|null $description = null, list<string>|string|null $tags = null)
 * @method static void criticalMedium(string $title, string|\Throwable|null $description = null, list<string>|string|null $tags = null)
 * @method static void criticalHigh(string $title, string|\Throwable|null $description = null, list<string>|string|null $tags = null)
 * @method static void major(string $title, string|\Throwable|null $description = null, list<string>|string|null $tags = null)
 * @method static void majorLow(string $title, string|\Throwable|null $description = null, list<string>|string|null $tags = null)
 * @method static void majorMedium(string $title, string|\Throwable|null $description = null, list<string>|string|null $tags = null)
 * @method static void majorHigh(string $title, string|\Throwable|null $description = null, list<string>|string|null $tags = null)
 * @method static void moderate(string $title, string|\Throwable|null $description = null, list<string>|string|null $tags = null)
 * @method static void moderateLow(string $title, string|\Throwable|null $description = null, list<string>|string|null $tags = null)
 * @method static void moderateMedium(string $title, string|\Throwable|null $description = null, list<string>|string|null $tags = null)
 * @method static void moderateHigh(string $title, string|\Throwable|null $description = null, list<string>|string|null $tags = null)
 * @method static void minor(string $title, string|\Throwable|null $description = null, list<string>|string|null $tags = null)
 * @method static void minorLow(string $title, string|\Throwable|null $description = null, list<string>|string|null $tags = null)
 * @method static void minorMedium(string $title, string|\Throwable|null $description = null, list<string>|string|null $tags = null)
 * @method static void minorHigh(string $title, string|\Throwable|null $description = null, list<string>|string|null $tags = null)
 * @method static FlushResult flush(?int $timeoutMs = null)
 * @method static int droppedCount()
 *
 * @see Client
 */
class Svc extends Facade
{
    /**
     * Replaces the client everywhere (the facade, injection, the exception handler's reports) with
     * a fake that records reports, built with the app's `svc.options` (environment, defaultTags,
     * beforeSend...) and `$options` over them.
     *
     * @param array<string, mixed> $options
     */
    public static function fake(array $options = []): FakeClient
    {
        $app = static::getFacadeApplication();
        $configured = $app !== null ? (array) $app['config']->get('svc.options', []) : [];
        $fake = FakeClient::create($options + $configured + ['projectRoot' => $app?->basePath()]);
        static::swap($fake);
        return $fake;
    }

    protected static function getFacadeAccessor(): string
    {
        return Client::class;
    }
}
