<?php

declare(strict_types=1);

namespace Svc\Tests\Support;

/**
 * The built reference service for the black-box suite, started once per PHPUnit process by
 * tests/harness/service.mjs (Node, the repository's @svc/server) and stopped when PHPUnit exits.
 * Reads the project's cards and pauses/resumes it through the harness's control endpoint.
 */
final class ReferenceService
{
    private static ?self $instance = null;

    /** @var resource */
    private $process;

    /** @var array<int, resource> */
    private array $pipes = [];

    public readonly string $url;

    private readonly string $control;

    /** @var array{apiKey: string, keyId: string, signingSecret: string, encryptionPublicKey: string, encryptionKeyId: string} */
    public readonly array $keys;

    public static function get(): self
    {
        return self::$instance ??= new self();
    }

    private function __construct()
    {
        $harness = \dirname(__DIR__) . '/harness/service.mjs';
        $node = getenv('SVC_NODE') ?: 'node';
        $this->process = proc_open([$node, $harness], [0 => ['pipe', 'r'], 1 => ['pipe', 'w'], 2 => STDERR], $this->pipes);
        $line = \is_resource($this->process) ? (string) fgets($this->pipes[1]) : '';
        $config = json_decode($line, true);
        if (!\is_array($config)) {
            throw new \RuntimeException("the reference service did not start (is the repository built? npm run build): {$line}");
        }
        [$this->url, $this->control, $this->keys] = [$config['url'], $config['control'], $config['keys']];
        register_shutdown_function(function (): void {
            fclose($this->pipes[0]);
            proc_close($this->process);
        });
    }

    /** @return list<array<string, mixed>> the project's cards, with their variants */
    public function cards(): array
    {
        return json_decode((string) file_get_contents($this->control . '/cards'), true, 512, JSON_THROW_ON_ERROR);
    }

    /** @return array<string, mixed>|null the card with this title */
    public function card(string $title): ?array
    {
        foreach ($this->cards() as $card) {
            if ($card['title'] === $title) {
                return $card;
            }
        }
        return null;
    }

    public function setProjectState(string $state): void
    {
        $context = stream_context_create(['http' => ['method' => 'POST']]);
        file_get_contents("{$this->control}/project/{$state}", false, $context);
    }
}
