<?php

declare(strict_types=1);

namespace Svc\Tests\BlackBox;

use PHPUnit\Framework\TestCase;
use Svc\Tests\Support\ReferenceService;

/**
 * Flush at `register_shutdown_function`, in real `php` child processes that report and end without
 * calling flush(): however the script ends, every queued report reaches the reference service.
 */
final class ShutdownTest extends TestCase
{
    /** @return array{int, string} exit code and stderr */
    private static function runScript(string $mode, string $prefix, int $reports): array
    {
        $svc = ReferenceService::get();
        $env = [
            'PATH' => (string) getenv('PATH'),
            'SERVICE_URL' => $svc->url,
            'SERVICE_API_KEY' => $svc->keys['apiKey'],
            'REPORTS' => (string) $reports,
            'PREFIX' => $prefix,
            'MODE' => $mode,
        ];
        $process = proc_open(
            [PHP_BINARY, '-d', 'display_errors=stderr', \dirname(__DIR__) . '/fixtures/report-and-exit.php'],
            [0 => ['pipe', 'r'], 1 => ['pipe', 'w'], 2 => ['pipe', 'w']],
            $pipes,
            null,
            $env,
        );
        fclose($pipes[0]);
        $stdout = stream_get_contents($pipes[1]);
        $stderr = stream_get_contents($pipes[2]);
        return [proc_close($process), $stdout . $stderr];
    }

    /** @return list<string> titles of the cards starting with `$prefix` */
    private static function titles(string $prefix): array
    {
        $titles = array_column(ReferenceService::get()->cards(), 'title');
        return array_values(array_filter($titles, static fn (string $t): bool => str_starts_with($t, $prefix . ' ')));
    }

    public function testAScriptThatSimplyEndsDeliversEveryQueuedReport(): void
    {
        [$code, $output] = self::runScript('end', 'PHP shutdown end', 25);
        self::assertSame(0, $code, $output);
        self::assertCount(25, self::titles('PHP shutdown end'));
        $card = ReferenceService::get()->card('PHP shutdown end 1');
        // The project root is auto-detected: the directory holding composer.json above the script.
        self::assertSame('tests/fixtures/report-and-exit.php', $card['variants'][0]['file_name']);
        $lines = file(\dirname(__DIR__) . '/fixtures/report-and-exit.php');
        $reportLine = 1 + key(preg_grep('/\$svc->moderate\(/', $lines));
        self::assertSame($reportLine, $card['variants'][0]['line_number']);
    }

    public function testExitDeliversToo(): void
    {
        [$code, $output] = self::runScript('exit', 'PHP shutdown exit', 3);
        self::assertSame(3, $code, $output);
        self::assertCount(3, self::titles('PHP shutdown exit'));
    }

    public function testAnUncaughtExceptionReportedByTheHandlerIsDeliveredAtShutdown(): void
    {
        [, $output] = self::runScript('throw', 'PHP shutdown throw', 1);
        self::assertStringNotContainsString('[svc]', $output);
        $titles = self::titles('PHP shutdown throw');
        sort($titles);
        self::assertSame(['PHP shutdown throw 1', 'PHP shutdown throw uncaught'], $titles);
        $card = ReferenceService::get()->card('PHP shutdown throw uncaught');
        self::assertStringStartsWith('RuntimeException: unhandled in the child', $card['description']);
    }

    public function testAFatalErrorStillFlushesWhatWasQueuedAndWhatTheShutdownHandlerReports(): void
    {
        [$code, $output] = self::runScript('fatal', 'PHP shutdown fatal', 2);
        self::assertSame(255, $code, $output);
        self::assertStringContainsString('Allowed memory size', $output);
        $titles = self::titles('PHP shutdown fatal');
        sort($titles);
        self::assertSame(['PHP shutdown fatal 1', 'PHP shutdown fatal 2', 'PHP shutdown fatal fatal'], $titles);
    }
}
