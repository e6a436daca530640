<?php

declare(strict_types=1);

namespace Svc\Internal;

/**
 * Payload encryption (contract 10): the JSON body sealed with `sodium_crypto_box_seal` (X25519 +
 * XSalsa20-Poly1305, a fresh ephemeral key per message) into the version 1 envelope, `key_id`
 * omitted when not configured. The envelope is what gets signed.
 */
final class Sealer
{
    private function __construct(private readonly string $publicKey, private readonly ?string $keyId)
    {
    }

    /** A sealer, or null when `$publicKey` is not base64 of exactly 32 bytes (or sodium is missing). */
    public static function create(string $publicKey, ?string $keyId): ?self
    {
        $raw = base64_decode(trim($publicKey), true);
        if (!\is_string($raw) || \strlen($raw) !== 32 || !\function_exists('sodium_crypto_box_seal')) {
            return null;
        }
        return new self($raw, $keyId);
    }

    public function seal(string $json): string
    {
        $envelope = ['v' => 1, 'alg' => 'x25519-sealedbox'];
        if ($this->keyId !== null) {
            $envelope['key_id'] = $this->keyId;
        }
        $envelope['ciphertext'] = base64_encode(sodium_crypto_box_seal($json, $this->publicKey));
        return Text::json(['encrypted' => $envelope]);
    }
}
