<?php

namespace App\Jobs;

use Illuminate\Bus\Queueable;
use Illuminate\Contracts\Queue\ShouldQueue;
use Illuminate\Foundation\Bus\Dispatchable;
use Illuminate\Queue\InteractsWithQueue;
use Svc\Laravel\Facades\Svc;

/** A queued job that reports a finding, then works on (0.2 s) and succeeds: the worker delivers after it. */
class ReconcileStock implements ShouldQueue
{
    use Dispatchable, InteractsWithQueue, Queueable;

    public function __construct(public int $warehouse)
    {
    }

    public function handle(): void
    {
        Svc::minor('Stock count differs from the ledger', "warehouse {$this->warehouse}: 3 units unaccounted for", ['inventory']);
        usleep(200_000); // the rest of the reconciliation
    }
}
