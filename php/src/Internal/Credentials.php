<?php

declare(strict_types=1);

namespace Svc\Internal;

use Svc\Generated\Service;

/**
 * Credential selection (contract 5.5) and the auth headers of one attempt (contract 5.1, 5.2).
 * Signed auth wins when `keyId` and `signingSecret` are both set (the secret never leaves the
 * process); an `apiKey` given as well is ignored with a warning. Signatures cover the exact bytes
 * sent and the constant path, with a fresh timestamp on every attempt.
 */
final class Credentials
{
    /** @var list<string> warnings to show (always, whether or not `debug` is on) */
    public readonly array $warnings;

    public readonly ?string $scheme;

    private function __construct(
        private readonly ?string $apiKey,
        private readonly ?string $keyId,
        private readonly ?string $signingSecret,
        array $warnings,
    ) {
        $this->scheme = $keyId !== null ? 'signed' : ($apiKey !== null ? 'bearer' : null);
        $this->warnings = $warnings;
    }

    public static function pick(?string $apiKey, ?string $keyId, ?string $signingSecret): self
    {
        $warnings = [];
        $signed = $keyId !== null && $signingSecret !== null;
        if ($signed && $apiKey !== null) {
            $warnings[] = 'apiKey ignored: keyId + signingSecret take precedence (signed auth)';
        }
        if (($keyId === null) !== ($signingSecret === null)) {
            $warnings[] = 'keyId and signingSecret go together';
        }
        if (!$signed && $apiKey === null) {
            $warnings[] = 'no apiKey or keyId + signingSecret: client disabled, nothing is sent'
                . ' (set SERVICE_API_KEY, or SERVICE_KEY_ID and SERVICE_SIGNING_SECRET)';
        }
        return $signed
            ? new self(null, $keyId, $signingSecret, $warnings)
            : new self($apiKey, null, null, $warnings);
    }

    /**
     * Headers for these exact bytes, computed now.
     *
     * @return array<string, string>
     */
    public function headers(string $body, int $unixSeconds): array
    {
        if ($this->keyId !== null && $this->signingSecret !== null) {
            return self::sign($this->keyId, $this->signingSecret, $body, $unixSeconds, 'POST');
        }
        return ['Authorization' => 'Bearer ' . $this->apiKey];
    }

    /**
     * `timestamp.METHOD./api/v1/tasks.sha256_hex(body)`, HMAC-SHA256 with the whole secret as key.
     *
     * @return array<string, string>
     */
    public static function sign(string $keyId, string $secret, string $body, int $unixSeconds, string $method): array
    {
        $timestamp = (string) $unixSeconds;
        $payload = $timestamp . '.' . strtoupper($method) . '.' . Service::TASKS_PATH . '.' . hash('sha256', $body);
        return [
            'X-Svc-Key-Id' => $keyId,
            'X-Svc-Timestamp' => $timestamp,
            'X-Svc-Signature' => hash_hmac('sha256', $payload, $secret),
        ];
    }
}
