<?php

declare(strict_types=1);

namespace Svc\Tests\BlackBox;

use PHPUnit\Framework\TestCase;
use Svc\Tests\Support\ReferenceService;

/**
 * Long-running runtimes (RoadRunner, FrankenPHP workers, queue workers): a real `php` worker loop
 * that never ends by itself flushes after each job, so every report reaches the reference service
 * while the process is still running.
 */
final class LongRunningTest extends TestCase
{
    public function testAWorkerThatNeverExitsDeliversEachJobsReportWhenTheJobEnds(): void
    {
        $svc = ReferenceService::get();
        $env = ['PATH' => (string) getenv('PATH'), 'SERVICE_URL' => $svc->url, 'SERVICE_API_KEY' => $svc->keys['apiKey']];
        $worker = proc_open([PHP_BINARY, \dirname(__DIR__) . '/fixtures/worker-loop.php'], [0 => ['pipe', 'r'], 1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes, null, $env);
        try {
            self::assertSame("ready\n", fgets($pipes[1]));
            $outcomes = [];
            foreach (['fail first', 'ok', 'fail second'] as $job) {
                fwrite($pipes[0], $job . "\n");
                $outcomes[] = trim((string) fgets($pipes[1]));
                self::assertTrue(proc_get_status($worker)['running'], 'the worker is still running');
            }
            self::assertSame(['handled 1 0', 'handled 0 0', 'handled 0 1'], $outcomes);
            $card = $svc->card('Worker job failed');
            self::assertSame(2, $card['occurrence_count']);
            self::assertSame(['tests/fixtures/worker-loop.php'], array_values(array_unique(array_column($card['variants'], 'file_name'))));
            self::assertTrue(proc_get_status($worker)['running']);
        } finally {
            fclose($pipes[0]);
            $stderr = stream_get_contents($pipes[2]);
            self::assertSame(0, proc_close($worker));
            self::assertSame('', $stderr);
        }
    }
}
