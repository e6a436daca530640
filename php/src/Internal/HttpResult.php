<?php

declare(strict_types=1);

namespace Svc\Internal;

/** What one attempt gave: an HTTP answer, or a network failure of a known kind. */
final class HttpResult
{
    /** Network failure kinds: the name resolution, the connection, TLS, the timeout, anything else. */
    public const DNS = 'dns';
    public const CONNECT = 'connect';
    public const TLS = 'tls';
    public const TIMEOUT = 'timeout';
    public const NETWORK = 'network';
    /** Too many redirects, or a redirect to something other than http(s). */
    public const REDIRECT = 'redirect';

    private function __construct(
        public readonly ?int $status,
        public readonly string $body,
        public readonly ?string $retryAfter,
        public readonly ?string $failure,
        public readonly string $error,
        public readonly ?string $redirectedTo,
    ) {
    }

    /** @param string|null $redirectedTo the address that answered, when redirects were followed to it */
    public static function answer(int $status, string $body, ?string $retryAfter = null, ?string $redirectedTo = null): self
    {
        return new self($status, $body, $retryAfter, null, '', $redirectedTo);
    }

    public static function failure(string $kind, string $error): self
    {
        return new self(null, '', null, $kind, $error, null);
    }
}
