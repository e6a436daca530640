<?php

declare(strict_types=1);

namespace Svc\Tests\BlackBox;

use PHPUnit\Framework\TestCase;
use Svc\Tests\Support\ReferenceService;

/**
 * The shutdown flush is bounded: a real `php` process whose reports go to a service that accepts
 * the connection and never answers exits within `timeoutMs` (plus process start-up), whatever the
 * number of reports, with one warning naming the address; a service that answers still gets every
 * report. The silent service is a listening socket this test never accepts from: the kernel
 * completes the TCP handshake, takes the request, and nothing ever answers.
 */
final class BoundedShutdownTest extends TestCase
{
    /** @var resource|null */
    private $silent = null;

    /** The scripts' TMPDIR: the note they leave about the silent service stays with this test. */
    private static string $tmp = '';

    protected function setUp(): void
    {
        self::$tmp = sys_get_temp_dir() . '/svc-bounded-' . bin2hex(random_bytes(4));
        mkdir(self::$tmp);
    }

    protected function tearDown(): void
    {
        if (\is_resource($this->silent)) {
            fclose($this->silent);
        }
        exec('rm -rf ' . escapeshellarg(self::$tmp));
    }

    private function silentService(): string
    {
        $this->silent = stream_socket_server('tcp://127.0.0.1:0', $errno, $error, STREAM_SERVER_BIND | STREAM_SERVER_LISTEN) ?: null;
        self::assertIsResource($this->silent, $error);
        return 'http://' . stream_socket_get_name($this->silent, false);
    }

    /** @return array{int, string, float} exit code, output and wall time in ms */
    private static function runScript(string $url, int $reports, ?int $timeoutMs, string $prefix): array
    {
        $env = ['PATH' => (string) getenv('PATH'), 'TMPDIR' => self::$tmp, 'SERVICE_URL' => $url, 'SERVICE_API_KEY' => ReferenceService::get()->keys['apiKey'],
            'REPORTS' => (string) $reports, 'PREFIX' => $prefix, 'MODE' => 'end'] + ($timeoutMs === null ? [] : ['TIMEOUT_MS' => (string) $timeoutMs]);
        $started = hrtime(true);
        $process = proc_open([PHP_BINARY, \dirname(__DIR__) . '/fixtures/report-and-exit.php'], [0 => ['pipe', 'r'], 1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes, null, $env);
        fclose($pipes[0]);
        $output = stream_get_contents($pipes[1]) . stream_get_contents($pipes[2]);
        $code = proc_close($process);
        return [$code, $output, (hrtime(true) - $started) / 1e6];
    }

    public function testThreeReportsToAServiceThatNeverAnswersEndWithinTheDefaultTimeoutAndOneWarning(): void
    {
        $url = $this->silentService();
        [$code, $output, $ms] = self::runScript($url, 3, null, 'Silent three');
        self::assertSame(0, $code, $output);
        self::assertLessThan(5000 + 2500, $ms, "exited after {$ms} ms (timeoutMs 5000)");
        self::assertGreaterThan(4500, $ms, 'the budget is used for delivery, not cut short');
        $lines = array_values(array_filter(explode("\n", trim($output))));
        self::assertCount(1, $lines, $output);
        self::assertMatchesRegularExpression('~^\[svc\] 3 report\(s\) not delivered to ' . preg_quote($url, '~') . ': no answer within (\d+) ms; (\d+) ms spent trying; given up so the process can exit\. Is the service overloaded~', $lines[0]);
        preg_match('~; (\d+) ms spent~', $lines[0], $spent);
        self::assertGreaterThanOrEqual(5000, (int) $spent[1]);
        self::assertLessThanOrEqual($ms, (int) $spent[1], 'the time it names is the time it took');
    }

    public function testTenReportsTakeNoLongerThanThreeWithAShorterTimeout(): void
    {
        $url = $this->silentService();
        [$code, $output, $ms] = self::runScript($url, 10, 1000, 'Silent ten');
        self::assertSame(0, $code, $output);
        self::assertLessThan(1000 + 2500, $ms, "exited after {$ms} ms (timeoutMs 1000)");
        self::assertSame(1, substr_count($output, '[svc]'), $output);
        self::assertStringContainsString("10 report(s) not delivered to {$url}: no answer within ", $output);
    }

    public function testAServiceThatAnswersStillGetsEveryReportWithinTheBudget(): void
    {
        [$code, $output] = self::runScript(ReferenceService::get()->url, 20, 1000, 'Bounded but delivered');
        self::assertSame([0, ''], [$code, $output]);
        $titles = array_filter(array_column(ReferenceService::get()->cards(), 'title'), static fn (string $t): bool => str_starts_with($t, 'Bounded but delivered '));
        self::assertCount(20, $titles);
    }
}
