<?php

declare(strict_types=1);

namespace Svc\Laravel\Console;

use Illuminate\Console\Command;
use Svc\Client;
use Svc\Integration\TestReport;

/** `php artisan svc:test`: sends one test report now and prints what became of it (exit 0 when it arrived). */
class TestCommand extends Command
{
    /** @var string */
    protected $signature = 'svc:test';

    /** @var string */
    protected $description = 'Send a test report to Svc and print the outcome';

    public function handle(Client $svc): int
    {
        [$ok, $lines] = TestReport::send($svc, 'php artisan svc:test');
        foreach ($lines as $line) {
            $ok ? $this->info($line) : $this->error($line);
        }
        return $ok ? self::SUCCESS : self::FAILURE;
    }
}
