<?php

use App\Jobs\ChargeCard;
use Illuminate\Support\Facades\Log;
use Illuminate\Support\Facades\Route;
use Svc\Laravel\Facades\Svc;

Route::get('/', fn () => 'Svc + Laravel example: try /boom, /orders/42, /log, /report and /queue/{order}');

// An uncaught exception: Laravel answers its usual 500 page, the exception handler reports it.
Route::get('/boom', function () {
    throw new RuntimeException('boom: the checkout service is down');
});

// The card's title names the route pattern, never the URL: one card for every order.
Route::get('/orders/{order}', function (int $order) {
    throw new RuntimeException("order {$order} has no lines");
});

// A log record at error level through the `svc` log channel (config/logging.php).
Route::get('/log', function () {
    Log::error('Payment provider timed out for order {order}', ['order' => 42]);
    return 'logged';
});

// A report made by the app itself, through the facade.
Route::get('/report', function () {
    Svc::moderateHigh('Inventory below threshold', 'sku ABC-1 has 2 left', ['inventory']);
    return 'reported';
});

// A report made while the page still has work to do: it goes out after the response is sent,
// and a service that is down or hung holds this worker at most timeoutMs + 1 s in its life.
Route::get('/restock', function () {
    Svc::moderateHigh('Inventory below threshold', 'sku ABC-1 has 2 left', ['inventory']);
    usleep(200_000); // the rest of the page's work
    return 'restocked';
});

// Queues a job that fails in the worker (`php artisan queue:work`).
Route::get('/queue/{order}', function (int $order) {
    ChargeCard::dispatch($order);
    return 'queued';
});
