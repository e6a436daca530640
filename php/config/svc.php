<?php

// Svc (svc/svc-php) for Laravel. Publish it with `php artisan vendor:publish --tag=svc-config`.
// Nothing here is required: with the SERVICE_* variables in .env, the defaults report every
// exception the framework reports, after the response is sent and after each queued job.

declare(strict_types=1);

use Svc\Generated\Options;
use Svc\Generated\Service;

return [
    // The service address; unset: the SDK's built-in address. Read from SERVICE_URL.
    'url' => env(Service::URL_ENV),

    // The credentials and encryption key, read with env() so `php artisan config:cache` keeps them:
    // SERVICE_API_KEY, or SERVICE_KEY_ID + SERVICE_SIGNING_SECRET (servers: signed requests), and
    // SERVICE_ENCRYPTION_PUBLIC_KEY + SERVICE_ENCRYPTION_KEY_ID (every report sealed).
    'credentials' => array_map(static fn (string $variable) => env($variable), Options::ENV),

    // Any option of the SDK (camelCase or snake_case): enabled, environment, release, defaultTags,
    // sampleRate, hideApiResponse, captureLocation, projectRoot (default: base_path()),
    // maxQueueSize, timeoutMs, maxRetries, beforeSend, debug, logLocally.
    'options' => [
        'environment' => env('APP_ENV'),
    ],

    // Report what the exception handler reports (its dontReport list applies). Severity and
    // priority: null takes the failure table's, the same in every Svc integration for the same
    // kind of failure (docs/laravel.md); an enum case (Severity::Critical, Priority::High) or its
    // string sets them for every reported exception.
    'report_exceptions' => true,
    'severity' => null,
    'priority' => null,
];
