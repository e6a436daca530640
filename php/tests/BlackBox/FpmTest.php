<?php

declare(strict_types=1);

namespace Svc\Tests\BlackBox;

use PHPUnit\Framework\TestCase;
use Svc\Tests\Support\RecordingServer;

/**
 * Under PHP-FPM the response is finished before the shutdown delivery: a real php-fpm serves a
 * page that reports to a service answering after 2 s; the FastCGI client (cgi-fcgi) has the whole
 * page well before that, and the report still reaches the service afterwards.
 *
 * @group fpm
 */
final class FpmTest extends TestCase
{
    /** @var resource|null */
    private $fpm = null;

    private ?RecordingServer $server = null;

    private string $dir = '';

    protected function tearDown(): void
    {
        $this->server?->stop();
        if (\is_resource($this->fpm)) {
            proc_terminate($this->fpm);
            proc_close($this->fpm);
        }
        if ($this->dir !== '') {
            exec('rm -rf ' . escapeshellarg($this->dir));
        }
    }

    private function startFpm(): int
    {
        $binary = (glob('/usr/sbin/php-fpm*') ?: [null])[0];
        if ($binary === null || !is_executable('/usr/bin/cgi-fcgi')) {
            self::markTestSkipped('needs php-fpm and cgi-fcgi (Debian packages php-fpm and libfcgi-bin)');
        }
        $probe = stream_socket_server('tcp://127.0.0.1:0');
        $port = (int) substr((string) strrchr((string) stream_socket_get_name($probe, false), ':'), 1);
        fclose($probe);
        $this->dir = sys_get_temp_dir() . '/svc-fpm-' . bin2hex(random_bytes(4));
        mkdir($this->dir);
        file_put_contents("{$this->dir}/fpm.conf", implode("\n", [
            '[global]', "error_log = {$this->dir}/fpm.log", 'daemonize = no',
            '[www]', "listen = 127.0.0.1:{$port}", 'pm = static', 'pm.max_children = 1', 'clear_env = no', '',
        ]));
        $root = \function_exists('posix_getuid') && posix_getuid() === 0 ? ['-R'] : [];
        $this->fpm = proc_open([$binary, '-n', '-d', 'extension=curl', '-d', 'extension=mbstring', '-F', '-y', "{$this->dir}/fpm.conf", ...$root], [0 => ['pipe', 'r'], 1 => ['file', "{$this->dir}/out.log", 'a'], 2 => ['file', "{$this->dir}/out.log", 'a']], $pipes);
        for ($i = 0; $i < 100; $i++) {
            $socket = @stream_socket_client("tcp://127.0.0.1:{$port}", $errno, $error, 0.1);
            if ($socket !== false) {
                fclose($socket);
                return $port;
            }
            usleep(50_000);
        }
        self::fail('php-fpm did not start: ' . @file_get_contents("{$this->dir}/out.log") . @file_get_contents("{$this->dir}/fpm.log"));
    }

    public function testTheResponseIsFinishedBeforeTheReportIsDelivered(): void
    {
        $port = $this->startFpm();
        $this->server = new RecordingServer([['status' => 201, 'body' => '{"deduplicated":false}', 'delayMs' => 2000]]);
        $env = ['PATH' => (string) getenv('PATH'), 'SCRIPT_FILENAME' => realpath(\dirname(__DIR__) . '/fixtures/fpm-report.php'), 'REQUEST_METHOD' => 'GET',
            'SERVICE_URL' => $this->server->url, 'SERVICE_API_KEY' => 'svc_pub_0123456789abcdef0123456789abcdef0123456789abcdef', 'PREFIX' => 'FPM finish'];
        $started = hrtime(true);
        $client = proc_open(['/usr/bin/cgi-fcgi', '-bind', '-connect', "127.0.0.1:{$port}"], [0 => ['pipe', 'r'], 1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes, null, $env);
        fclose($pipes[0]);
        $page = stream_get_contents($pipes[1]) . stream_get_contents($pipes[2]);
        proc_close($client);
        $pageMs = (hrtime(true) - $started) / 1e6;
        self::assertStringContainsString('page done', $page);
        self::assertLessThan(1500, $pageMs, "the page took {$pageMs} ms: the response waited for the service (2000 ms)");
        for ($i = 0; $i < 100 && $this->server->requests() === []; $i++) {
            usleep(50_000);
        }
        $requests = $this->server->requests();
        self::assertCount(1, $requests, 'the report is delivered after the response');
        self::assertSame('FPM finish report', json_decode($requests[0]['body'], true)['title']);
    }
}
