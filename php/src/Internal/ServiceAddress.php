<?php

declare(strict_types=1);

namespace Svc\Internal;

use Svc\Generated\Service;

/**
 * The service address, a deployment setting beside the options (contract 4 gives SDKs no base-URL
 * option): the `serviceUrl` argument, else the `SERVICE_URL` environment variable, else the
 * address the SDK was generated with (the same order as the TypeScript SDK). An invalid value disables the client with one warning.
 */
final class ServiceAddress
{
    private function __construct(
        public readonly ?string $url,
        public readonly ?string $warning,
    ) {
    }

    public static function resolve(?string $fromEnvironment, mixed $explicit): self
    {
        [$value, $source] = match (true) {
            $explicit !== null => [$explicit, 'serviceUrl'],
            $fromEnvironment !== null && trim($fromEnvironment) !== '' => [$fromEnvironment, Service::URL_ENV],
            default => [Service::URL, null],
        };
        $url = \is_string($value) ? rtrim(trim($value), '/') : null;
        if ($url === null || !self::valid($url)) {
            // Credentials stay out of the warning, with a scheme or without one (`user:pass@host`).
            $shown = \is_string($value) ? '"' . preg_replace('~^([a-z][a-z0-9+.\-]*://)?[^\s/?#"]*@~i', '$1[REDACTED]@', $value) . '"' : get_debug_type($value);
            return new self(null, "{$source} {$shown} is not an http(s) address without query or credentials: client disabled, nothing is sent");
        }
        return new self($url, null);
    }

    private static function valid(string $url): bool
    {
        $parts = parse_url($url);
        return \is_array($parts)
            && \in_array(strtolower($parts['scheme'] ?? ''), ['http', 'https'], true)
            && ($parts['host'] ?? '') !== ''
            && !isset($parts['user'])
            && !isset($parts['query'])
            && !isset($parts['fragment'])
            && preg_match('/\s/', $url) !== 1;
    }
}
