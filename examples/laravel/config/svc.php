<?php

// Svc's config, as `php artisan vendor:publish --tag=svc-config` writes it (comments trimmed; the
// keys left out keep the package's defaults), with this app's own line: the per-attempt limit and
// exit budget `timeoutMs` from SVC_TIMEOUT_MS.

use Svc\Generated\Options;
use Svc\Generated\Service;

return [
    'url' => env(Service::URL_ENV),
    'credentials' => array_map(static fn (string $variable) => env($variable), Options::ENV),
    'options' => [
        'environment' => env('APP_ENV'),
        'timeoutMs' => (int) env('SVC_TIMEOUT_MS', 5000),
    ],
];
