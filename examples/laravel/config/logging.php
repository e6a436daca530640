<?php

use Monolog\Handler\NullHandler;
use Svc\Monolog\SvcHandler;

return [
    'default' => env('LOG_CHANNEL', 'stack'),

    'deprecations' => env('LOG_DEPRECATIONS_CHANNEL', 'null'),

    'channels' => [
        'stack' => [
            'driver' => 'stack',
            'channels' => ['single', 'svc'],
            'ignore_exceptions' => false,
        ],

        'single' => [
            'driver' => 'single',
            'path' => storage_path('logs/laravel.log'),
            'level' => env('LOG_LEVEL', 'debug'),
        ],

        // Log records at `error` and above become cards. Exceptions the handler already reported
        // are skipped, so an error makes one card.
        'svc' => [
            'driver' => 'monolog',
            'handler' => SvcHandler::class,
            'level' => env('SVC_LOG_LEVEL', 'error'),
        ],

        'null' => [
            'driver' => 'monolog',
            'handler' => NullHandler::class,
        ],

        'emergency' => [
            'path' => storage_path('logs/laravel.log'),
        ],
    ],
];
