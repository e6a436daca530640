<?php

declare(strict_types=1);

namespace Svc\Tests\Frameworks\Laravel;

use Illuminate\Contracts\Console\Kernel;
use Illuminate\Foundation\Testing\TestCase;

/**
 * Laravel's own test case (as an app's tests use it) on the example app, examples/laravel: Laravel
 * 8.83 from Debian's php-laravel-framework, the Svc provider registered in its config/app.php.
 */
abstract class ExampleAppTestCase extends TestCase
{
    public const EXAMPLE = __DIR__ . '/../../../../examples/laravel';

    public function createApplication()
    {
        require_once self::EXAMPLE . '/bootstrap/autoload.php';
        $app = require self::EXAMPLE . '/bootstrap/app.php';
        $app->make(Kernel::class)->bootstrap();
        return $app;
    }
}
