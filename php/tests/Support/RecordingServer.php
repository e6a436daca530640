<?php

declare(strict_types=1);

namespace Svc\Tests\Support;

/**
 * Starts tests/Support/recording-server.php as a child process (a real HTTP server on
 * 127.0.0.1:0) and reads what it recorded: requests, and the TCP connection each came on.
 */
final class RecordingServer
{
    /** @var resource */
    private $process;

    /** @var array<int, resource> */
    private array $pipes = [];

    private readonly string $dir;

    public readonly string $url;

    /** @param list<array<string, mixed>> $script replies in order; the last one repeats */
    public function __construct(array $script = [])
    {
        $this->dir = sys_get_temp_dir() . '/svc-recorder-' . bin2hex(random_bytes(6));
        mkdir($this->dir);
        $this->script($script);
        $this->process = proc_open(
            [PHP_BINARY, __DIR__ . '/recording-server.php', $this->dir],
            [0 => ['pipe', 'r'], 1 => ['pipe', 'w'], 2 => ['file', $this->dir . '/stderr.log', 'a']],
            $this->pipes,
        );
        $line = (string) fgets($this->pipes[1]);
        if (preg_match('/^port (\d+)$/', trim($line), $m) !== 1) {
            throw new \RuntimeException("recording server did not start: {$line}");
        }
        $this->url = "http://127.0.0.1:{$m[1]}";
    }

    /** @param list<array<string, mixed>> $replies */
    public function script(array $replies): void
    {
        file_put_contents($this->dir . '/script.json', json_encode($replies));
    }

    /** @return list<array{connection: int, method: string, path: string, headers: array<string, string>, body: string}> */
    public function requests(): array
    {
        $file = $this->dir . '/requests.jsonl';
        if (!is_file($file)) {
            return [];
        }
        return array_map(
            static fn (string $line): array => json_decode($line, true),
            array_values(array_filter(explode("\n", (string) file_get_contents($file)))),
        );
    }

    /** TCP connections the requests came on. */
    public function connections(): int
    {
        return \count(array_unique(array_column($this->requests(), 'connection')));
    }

    public function stop(): void
    {
        foreach ($this->pipes as $pipe) {
            if (\is_resource($pipe)) {
                fclose($pipe);
            }
        }
        proc_close($this->process);
        exec('rm -rf ' . escapeshellarg($this->dir));
    }
}
