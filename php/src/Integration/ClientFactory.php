<?php

declare(strict_types=1);

namespace Svc\Integration;

use Svc\Client;
use Svc\Generated\Options;

/**
 * The client a framework integration builds from its configuration: options from the framework
 * config (camelCase or snake_case; unset or null values left out) win over credentials the config
 * read from the environment, which win over the process environment (`Client::fromEnvironment`).
 * `projectRoot` defaults to the framework's project directory, so `file_name` is relative to it.
 *
 * @internal shared by the Laravel and Symfony integrations
 */
final class ClientFactory
{
    /**
     * @param array<mixed> $options
     * @param array<mixed> $credentials option name => value read from the environment by the config
     */
    public static function create(array $options, array $credentials, mixed $url, string $projectRoot): Client
    {
        $options = self::given($options);
        if (!isset($options['projectRoot']) && !isset($options['project_root']) && $projectRoot !== '') {
            $options['projectRoot'] = $projectRoot;
        }
        return Client::fromEnvironment($options + self::given($credentials), \is_string($url) && trim($url) !== '' ? trim($url) : null);
    }

    /**
     * How long an integration's flush after a request, command or job may take: the configured
     * `timeoutMs` (one attempt's limit). A service that does not take reports costs that once in
     * the process's life, not per flush (the client's exit budget); what is not delivered stays
     * queued for the next flush, or is given up at exit in one warning.
     *
     * @param array<mixed> $options
     */
    public static function flushBudgetMs(array $options): int
    {
        $value = $options['timeoutMs'] ?? $options['timeout_ms'] ?? null;
        [$min, $max] = Options::RANGES['timeoutMs'];
        return \is_int($value) && $value >= $min && $value <= $max ? $value : (int) Options::DEFAULTS['timeoutMs'];
    }

    /**
     * @param array<mixed> $values
     * @return array<string, mixed>
     */
    private static function given(array $values): array
    {
        return array_filter($values, static fn (mixed $value): bool => $value !== null && $value !== '');
    }
}
