<?php

use Illuminate\Support\Facades\Artisan;

Artisan::command('orders:sync', function () {
    throw new RuntimeException('orders:sync failed: the warehouse API answered 503');
})->purpose('An Artisan command that fails (reported by the exception handler)');
