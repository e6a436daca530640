<?php

// Stands in for Composer's vendor/autoload.php, so this example runs on Debian 12's packages with
// no Composer: Laravel 8.83 (php-laravel-framework, which loads Monolog and the Symfony
// components), the Svc SDK from this repository (php/autoload.php maps Svc\ to php/src), and the
// app's own App\ classes. An app made with Composer keeps `require __DIR__.'/../vendor/autoload.php'`.

declare(strict_types=1);

require_once 'Illuminate/autoload.php'; // /usr/share/php, on PHP's include path
require_once __DIR__ . '/../../../php/autoload.php';

spl_autoload_register(static function (string $class): void {
    if (str_starts_with($class, 'App\\')) {
        $file = __DIR__ . '/../app/' . str_replace('\\', '/', substr($class, 4)) . '.php';
        if (is_file($file)) {
            require $file;
        }
    }
});
