<?php

// Synchronous cost of one reporting call of the PHP SDK, side by side in the same process and run,
// interleaved: the floor (appending a prebuilt array to an array), `major(title, description)` with
// location capture off and on, and `major(title, $exception)` (description rendered from the
// Throwable, location from its throw site). Timed in batches of BATCH calls; the queue is drained
// between batches outside the timed region, by a transport that answers at once (no network).
// Usage: php bench/php/sync-cost.php [batches]

declare(strict_types=1);

require __DIR__ . '/../../php/autoload.php';

use Svc\Internal\Deps;
use Svc\Internal\HttpResult;
use Svc\Internal\Transport;

const BATCH = 50;
$batches = (int) ($argv[1] ?? 400);

$instant = new class () implements Transport {
    public int $requests = 0;

    public function post(string $url, array $headers, string $body, int $timeoutMs): HttpResult
    {
        $this->requests++;
        return HttpResult::answer(201, '{"deduplicated":false}');
    }
};
$deps = new Deps(transport: $instant, shutdownHook: false);
$base = ['apiKey' => 'svc_pub_bench', 'maxQueueSize' => 1000, 'projectRoot' => dirname(__DIR__, 2)];
$noLocation = Svc\Client::create($base + ['captureLocation' => false], 'http://127.0.0.1:9', $deps);
$withLocation = Svc\Client::create($base, 'http://127.0.0.1:9', $deps);

function failing(int $depth): Throwable
{
    return $depth === 0 ? new RuntimeException('payment provider timed out') : failing($depth - 1);
}
$error = failing(10);
$floor = [];
$payload = ['title' => 'Checkout failed', 'description' => 'payment provider timed out', 'tags' => null];

$cases = [
    'floor: `$array[] = $prebuilt`' => static function () use (&$floor, $payload): void {
        $floor[] = $payload;
    },
    '`major(title, description)`, location off' => static fn () => $noLocation->major('Checkout failed', 'payment provider timed out'),
    '`major(title, description)`, location on (call site)' => static fn () => $withLocation->major('Checkout failed', 'payment provider timed out'),
    '`major(title, $exception)`, location on (throw site)' => static fn () => $withLocation->major('Checkout failed', $error),
];
$samples = array_fill_keys(array_keys($cases), []);
for ($b = 0; $b < $batches; $b++) {
    foreach ($cases as $name => $call) {
        $t0 = hrtime(true);
        for ($i = 0; $i < BATCH; $i++) {
            $call();
        }
        $samples[$name][] = (hrtime(true) - $t0) / BATCH;
    }
    $floor = [];
    $noLocation->flush();
    $withLocation->flush();
}

function percentile(array $xs, float $p): float
{
    sort($xs);
    return $xs[(int) min(count($xs) - 1, floor(count($xs) * $p / 100))];
}

printf("PHP %s, opcache.enable_cli=%s, JIT %s\n", PHP_VERSION, ini_get('opcache.enable_cli') ?: '0', ini_get('opcache.jit') ?: 'off');
printf("| call (%d batches of %d, first 20%% dropped) | median ns/call | p90 ns/call |\n|---|---|---|\n", $batches, BATCH);
foreach ($samples as $name => $xs) {
    $warm = array_slice($xs, intdiv(count($xs), 5));
    printf("| %s | %.0f | %.0f |\n", $name, percentile($warm, 50), percentile($warm, 90));
}
printf("reports delivered to the instant transport: %d (expected %d)\n", $instant->requests, 3 * $batches * BATCH);
