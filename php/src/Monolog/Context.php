<?php

declare(strict_types=1);

namespace Svc\Monolog;

/**
 * What of a log record's context goes into the card's description: the context as JSON, without
 * the keys to drop, at any depth. A key is dropped when one of the names to drop is among its words
 * (`access_token`, `refreshToken`, `HTTP_AUTHORIZATION` and `X-Api-Key` hold the words `token`,
 * `authorization` and `api key`), case-insensitively; objects are read as `json_encode` reads them
 * (public properties, `JsonSerializable`) and filtered the same way. Nesting past `MAX_DEPTH` levels
 * is cut (`[nested too deep]`).
 *
 * @internal
 */
final class Context
{
    /** Dropped by default: the names of obvious secrets. */
    public const DEFAULT_DROPPED_KEYS = ['password', 'passwd', 'secret', 'token', 'authorization', 'api_key', 'apikey', 'private_key', 'cookie'];

    public const MAX_DEPTH = 8;

    /** @var list<list<string>> the words of every name to drop */
    private readonly array $dropped;

    /** @param iterable<mixed> $dropKeys names to drop besides the defaults (strings; anything else is ignored) */
    public function __construct(iterable $dropKeys = [])
    {
        $names = self::DEFAULT_DROPPED_KEYS;
        foreach ($dropKeys as $name) {
            if (\is_string($name) && trim($name) !== '') {
                $names[] = $name;
            }
        }
        $this->dropped = array_values(array_unique(array_map(self::words(...), $names), SORT_REGULAR));
    }

    /**
     * The description of a record without an exception: the message, then the filtered context.
     *
     * @param array<mixed> $context
     */
    public function describe(string $message, array $context): string
    {
        unset($context['exception']);
        $kept = $this->filter($context, 0);
        if ($kept === []) {
            return $message;
        }
        return $message . "\n\ncontext: " . json_encode($kept, JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE | JSON_PARTIAL_OUTPUT_ON_ERROR | JSON_INVALID_UTF8_SUBSTITUTE);
    }

    /**
     * @param array<mixed> $values
     * @return array<mixed>
     */
    public function filter(array $values, int $depth): array
    {
        $kept = [];
        foreach ($values as $key => $value) {
            if (\is_string($key) && $this->drops($key)) {
                continue;
            }
            $kept[$key] = $this->value($value, $depth + 1);
        }
        return $kept;
    }

    /** Whether a key holds one of the names to drop among its words. */
    public function drops(string $key): bool
    {
        $words = self::words($key);
        foreach ($this->dropped as $name) {
            $length = \count($name);
            for ($i = 0; $i + $length <= \count($words); $i++) {
                if (\array_slice($words, $i, $length) === $name) {
                    return true;
                }
            }
        }
        return false;
    }

    private function value(mixed $value, int $depth): mixed
    {
        if (\is_object($value) && !$value instanceof \Throwable) {
            $value = json_decode((string) json_encode($value, JSON_PARTIAL_OUTPUT_ON_ERROR | JSON_INVALID_UTF8_SUBSTITUTE), true);
        }
        if (!\is_array($value)) {
            return $value;
        }
        return $depth >= self::MAX_DEPTH ? '[nested too deep]' : $this->filter($value, $depth);
    }

    /** @return list<string> `refreshToken`, `refresh_token`, `Refresh-Token` => [refresh, token] */
    private static function words(string $name): array
    {
        $spaced = (string) preg_replace('/(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])/', ' ', $name);
        return array_values(array_filter(preg_split('/[^a-z0-9]+/', strtolower($spaced)) ?: [], static fn (string $w): bool => $w !== ''));
    }
}
