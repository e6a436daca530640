<?php

use App\Jobs\ChargeCard;
use App\Jobs\ReconcileStock;
use Illuminate\Support\Facades\Artisan;

Artisan::command('orders:sync', function () {
    $this->info('Syncing orders from the warehouse API...');
    throw new RuntimeException('orders:sync failed: the warehouse API answered 503');
})->purpose('An Artisan command that fails (reported by the exception handler)');

Artisan::command('stock:reconcile {--warehouses=3}', function () {
    ChargeCard::dispatch(7);
    foreach (range(1, (int) $this->option('warehouses')) as $warehouse) {
        ReconcileStock::dispatch($warehouse);
    }
    $this->info('queued: one failing charge, then one reconciliation per warehouse');
})->purpose('Queues a job that fails and jobs that report and succeed (run them with queue:work)');
