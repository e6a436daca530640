<?php

declare(strict_types=1);

namespace Svc\Symfony;

use Symfony\Component\HttpKernel\Bundle\Bundle;

/**
 * The Symfony bundle (Symfony 5.4 to 7): register it in `config/bundles.php`
 * (`Svc\Symfony\SvcBundle::class => ['all' => true]`) and configure it under `svc:`
 * (`SvcExtension`, `Configuration`). The `Svc\Client` service reads the SERVICE_* variables by
 * default; `SvcSubscriber` reports and flushes.
 */
class SvcBundle extends Bundle
{
}
