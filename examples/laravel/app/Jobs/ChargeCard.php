<?php

namespace App\Jobs;

use Illuminate\Bus\Queueable;
use Illuminate\Contracts\Queue\ShouldQueue;
use Illuminate\Foundation\Bus\Dispatchable;
use Illuminate\Queue\InteractsWithQueue;

/** A queued job that fails: the queue worker reports it and flushes after it, without exiting. */
class ChargeCard implements ShouldQueue
{
    use Dispatchable, InteractsWithQueue, Queueable;

    public function __construct(public int $orderId)
    {
    }

    public function handle(): void
    {
        throw new \RuntimeException("card declined for order {$this->orderId} (queue boom)");
    }
}
