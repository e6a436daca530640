<?php

declare(strict_types=1);

namespace Svc\Tests\BlackBox;

use PHPUnit\Framework\TestCase;
use Svc\Tests\Support\ReferenceService;

/**
 * ext-sodium is a Composer suggestion, not a requirement: without it a client whose encryption is
 * configured warns clearly and sends nothing (never plaintext), and one without encryption works.
 * Real `php` processes with sodium's sealing function disabled (`disable_functions`), as on a
 * build without the extension.
 */
final class SodiumTest extends TestCase
{
    /** @return array{int, string} */
    private static function php(string $code, array $env): array
    {
        $process = proc_open(
            [PHP_BINARY, '-d', 'disable_functions=sodium_crypto_box_seal', '-r', 'require ' . var_export(realpath(__DIR__ . '/../../autoload.php'), true) . ';' . $code],
            [0 => ['pipe', 'r'], 1 => ['pipe', 'w'], 2 => ['pipe', 'w']],
            $pipes,
            null,
            $env + ['PATH' => (string) getenv('PATH')],
        );
        fclose($pipes[0]);
        $output = stream_get_contents($pipes[1]) . stream_get_contents($pipes[2]);
        return [proc_close($process), $output];
    }

    public function testEncryptionWithoutSodiumWarnsAndSendsNothingWhilePlainReportsWork(): void
    {
        $svc = ReferenceService::get();
        $env = ['SERVICE_URL' => $svc->url, 'SERVICE_API_KEY' => $svc->keys['apiKey']];
        [$code, $output] = self::php(
            'Svc\Client::fromEnvironment()->major("Sealed without sodium"); echo json_encode(function_exists("sodium_crypto_box_seal"));',
            $env + ['SERVICE_ENCRYPTION_PUBLIC_KEY' => $svc->keys['encryptionPublicKey']],
        );
        self::assertSame(0, $code, $output);
        self::assertSame(
            'false[svc] encryptionPublicKey is set but the sodium extension (ext-sodium) is not available: client disabled, nothing is sent (reports are never sent unencrypted; install or enable ext-sodium)',
            trim($output),
        );
        self::assertNull($svc->card('Sealed without sodium'));

        [$code, $output] = self::php('Svc\Client::fromEnvironment()->major("Plain without sodium");', $env);
        self::assertSame([0, ''], [$code, $output]);
        self::assertNotNull($svc->card('Plain without sodium'));
    }
}
