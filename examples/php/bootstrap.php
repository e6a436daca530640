<?php

// The three-line setup: load the SDK, create the client from the environment, report what
// nothing else catches. Everything else in this example is the app.

declare(strict_types=1);

require is_file(__DIR__ . '/vendor/autoload.php') ? __DIR__ . '/vendor/autoload.php' : __DIR__ . '/../../php/autoload.php';

$svc = Svc\Client::fromEnvironment(['environment' => getenv('APP_ENV') ?: 'development']);
set_exception_handler(static function (Throwable $error) use ($svc): void {
    $svc->critical('Uncaught ' . $error::class, $error);
    http_response_code(500);
    echo "Something went wrong.\n";
});

return $svc;
