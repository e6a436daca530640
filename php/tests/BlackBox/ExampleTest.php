<?php

declare(strict_types=1);

namespace Svc\Tests\BlackBox;

use PHPUnit\Framework\TestCase;
use Svc\Tests\Support\ReferenceService;

/**
 * The example (examples/php) and the README's setup, run as users run them: real `php` processes
 * configured only from the environment, the built-in web server for the front controller, and a
 * copy of the package outside the repository loaded with `require 'path/to/autoload.php'`.
 */
final class ExampleTest extends TestCase
{
    private const EXAMPLE = __DIR__ . '/../../../examples/php';

    /** @param array<string, string> $env */
    private static function php(array $args, array $env): array
    {
        $process = proc_open([PHP_BINARY, ...$args], [0 => ['pipe', 'r'], 1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes, null, $env + ['PATH' => (string) getenv('PATH')]);
        fclose($pipes[0]);
        $out = stream_get_contents($pipes[1]) . stream_get_contents($pipes[2]);
        return [proc_close($process), $out];
    }

    /** @return array<string, string> */
    private static function signedEnv(): array
    {
        $svc = ReferenceService::get();
        return [
            'SERVICE_URL' => $svc->url,
            'SERVICE_KEY_ID' => $svc->keys['keyId'],
            'SERVICE_SIGNING_SECRET' => $svc->keys['signingSecret'],
            'SERVICE_ENCRYPTION_PUBLIC_KEY' => $svc->keys['encryptionPublicKey'],
            'SERVICE_ENCRYPTION_KEY_ID' => $svc->keys['encryptionKeyId'],
        ];
    }

    public function testReportPhpReportsOneCardConfiguredFromTheEnvironment(): void
    {
        [$code, $out] = self::php([self::EXAMPLE . '/report.php', 'PHP example signed and sealed'], self::signedEnv());
        self::assertSame(0, $code, $out);
        self::assertSame("sent 1, deduplicated 0, failed 0\n", $out);
        $card = ReferenceService::get()->card('PHP example signed and sealed');
        self::assertSame(['major', 'medium', ['env:development']], [$card['severity'], $card['priority'], $card['tags']]);
        self::assertSame('report.php', $card['variants'][0]['file_name'], 'relative to the example (it holds composer.json)');

        $svc = ReferenceService::get();
        [$code, $out] = self::php([self::EXAMPLE . '/report.php', 'PHP example bearer'], ['SERVICE_URL' => $svc->url, 'SERVICE_API_KEY' => $svc->keys['apiKey']]);
        self::assertSame([0, "sent 1, deduplicated 0, failed 0\n"], [$code, $out]);
        self::assertNotNull($svc->card('PHP example bearer'));
    }

    public function testWithoutCredentialsTheExampleSaysWhatToSet(): void
    {
        [$code, $out] = self::php([self::EXAMPLE . '/report.php', 'PHP example no key'], ['SERVICE_URL' => ReferenceService::get()->url]);
        self::assertSame(0, $code, $out);
        self::assertStringContainsString('[svc] no apiKey or keyId + signingSecret: client disabled, nothing is sent (set SERVICE_API_KEY, or SERVICE_KEY_ID and SERVICE_SIGNING_SECRET)', $out);
        self::assertNull(ReferenceService::get()->card('PHP example no key'));
    }

    public function testTheFrontControllerReportsAnUncaughtExceptionAtTheEndOfTheRequest(): void
    {
        $env = self::signedEnv() + ['PATH' => (string) getenv('PATH'), 'APP_ENV' => 'e2e'];
        $process = proc_open(
            [PHP_BINARY, '-S', '127.0.0.1:0', self::EXAMPLE . '/public/index.php'],
            [0 => ['pipe', 'r'], 1 => ['pipe', 'w'], 2 => ['pipe', 'w']],
            $pipes,
            self::EXAMPLE,
            $env,
        );
        try {
            $line = (string) fgets($pipes[2]);
            self::assertSame(1, preg_match('#\(http://(127\.0\.0\.1:\d+)\) started#', $line, $m), $line);
            $base = "http://{$m[1]}";
            self::assertSame([200, "ok\n"], self::get("{$base}/"));
            self::assertSame([404, "not found\n"], self::get("{$base}/missing"));
            self::assertSame([500, "Something went wrong.\n"], self::get("{$base}/orders/42"));
        } finally {
            proc_terminate($process);
            proc_close($process);
        }
        $card = ReferenceService::get()->card('Uncaught RuntimeException');
        self::assertNotNull($card);
        self::assertSame(['critical', 'medium', ['env:e2e']], [$card['severity'], $card['priority'], $card['tags']]);
        self::assertStringStartsWith("RuntimeException: Could not load the order\n    at public/index.php:", $card['description']);
        self::assertStringContainsString("\nCaused by: PDOException: SQLSTATE[HY000]: no such table: orders (order 42)", $card['description']);
        // The throw site of the root cause (the PDOException), relative to the example's root.
        $lines = file(self::EXAMPLE . '/public/index.php');
        $throwLine = 1 + key(preg_grep('/throw new PDOException/', $lines));
        self::assertSame(['public/index.php', $throwLine], [$card['variants'][0]['file_name'], $card['variants'][0]['line_number']]);
    }

    public function testACopyOfThePackageOutsideTheRepositoryLoadsWithItsOwnAutoloader(): void
    {
        $dir = sys_get_temp_dir() . '/svc-adopt-' . bin2hex(random_bytes(4));
        mkdir("{$dir}/app", 0777, true);
        mkdir("{$dir}/svc-php");
        // What Composer would ship: everything but the archive excludes of composer.json.
        $package = \dirname(__DIR__, 2);
        $composer = json_decode((string) file_get_contents("{$package}/composer.json"), true);
        $exclude = array_map(static fn (string $p): string => ltrim($p, '/'), $composer['archive']['exclude']);
        foreach (scandir($package) as $entry) {
            if ($entry !== '.' && $entry !== '..' && !\in_array($entry, $exclude, true)) {
                exec('cp -R ' . escapeshellarg("{$package}/{$entry}") . ' ' . escapeshellarg("{$dir}/svc-php/"), $o, $c);
            }
        }
        file_put_contents("{$dir}/app/composer.json", '{}');
        file_put_contents("{$dir}/app/index.php", <<<'PHP'
            <?php
            require __DIR__ . '/../svc-php/autoload.php';
            $svc = Svc\Client::fromEnvironment(['environment' => 'production']);
            set_exception_handler(fn (Throwable $e) => $svc->critical('Uncaught ' . $e::class, $e));
            throw new DomainException('adopted outside the repository');
            PHP);
        try {
            self::assertDirectoryDoesNotExist("{$dir}/svc-php/tests");
            [, $out] = self::php(["{$dir}/app/index.php"], self::signedEnv());
            self::assertStringNotContainsString('[svc]', $out);
            $card = ReferenceService::get()->card('Uncaught DomainException');
            self::assertNotNull($card, $out);
            self::assertSame(['index.php', 5], [$card['variants'][0]['file_name'], $card['variants'][0]['line_number']]);
        } finally {
            exec('rm -rf ' . escapeshellarg($dir));
        }
    }

    /** @return array{int, string} */
    private static function get(string $url): array
    {
        $curl = curl_init($url);
        curl_setopt_array($curl, [CURLOPT_RETURNTRANSFER => true, CURLOPT_TIMEOUT => 30]);
        $body = (string) curl_exec($curl);
        return [(int) curl_getinfo($curl, CURLINFO_RESPONSE_CODE), $body];
    }
}
