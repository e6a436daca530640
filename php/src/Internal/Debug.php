<?php

declare(strict_types=1);

namespace Svc\Internal;

use Svc\Generated\Keys;

/**
 * The debug channel. `debug()` lines show only with the `debug` option; `warn()` (misconfiguration,
 * a service that cannot be reached) and `info()` (`logLocally`) always show. Every line is prefixed
 * `[svc]` and redacted: this client's key values and secrets, anything shaped like a key (the
 * generated `Keys` of contract 2.5; key ids keep 4 characters), Authorization / X-Svc-Signature
 * header values, and the credentials of any URL (`http://[REDACTED]@host`).
 */
final class Debug
{
    private const HEADERS = '/((?:authorization|x-svc-signature)"?\s*[:=]\s*"?)(?:Bearer )?[^"\s,}]+/i';

    /** The credentials of a URL (`scheme://user:password@`), up to the last `@` before its path. */
    private const URL_CREDENTIALS = '~\b([a-z][a-z0-9+.\-]*://)[^\s/?#"\'<>]*@~i';

    /** @var array<string, true> warnings already shown, by kind */
    private array $warned = [];

    /**
     * @param \Closure(string, string): void $logger level ('debug', 'info', 'warning') and line
     * @param list<string> $secrets
     */
    public function __construct(
        private readonly \Closure $logger,
        public readonly bool $enabled,
        private readonly array $secrets,
    ) {
    }

    /** The default logger: PHP's error log (stderr in the CLI). */
    public static function errorLog(): \Closure
    {
        return static function (string $level, string $line): void {
            error_log($line);
        };
    }

    public function debug(string $message, mixed ...$values): void
    {
        if ($this->enabled) {
            $this->write('debug', $message, $values);
        }
    }

    public function info(string $message, mixed ...$values): void
    {
        $this->write('info', $message, $values);
    }

    /** Always shown; once per `$kind` for this client when a kind is given. */
    public function warn(string $message, ?string $kind = null): void
    {
        if ($kind !== null) {
            if (isset($this->warned[$kind])) {
                return;
            }
            $this->warned[$kind] = true;
        }
        $this->write('warning', $message, []);
    }

    public function redact(string $text): string
    {
        foreach ($this->secrets as $secret) {
            $text = str_replace($secret, '[REDACTED]', $text);
        }
        $text = (string) preg_replace(self::HEADERS, '$1[REDACTED]', $text);
        $text = self::redactUrls($text);
        $prefixes = implode('|', array_map(static fn (string $p): string => preg_quote($p, '/'), Keys::PREFIXES));
        return (string) preg_replace_callback(
            '/\b(' . $prefixes . ')([\w-]{0,4})[\w-]*/',
            static fn (array $m): string => $m[1]
                . (\in_array($m[1], Keys::ID_PREFIXES, true) ? $m[2] . '***' : '[REDACTED]'),
            $text,
        );
    }

    /** The credentials of every URL in `$text` (`http://[REDACTED]@host`). */
    public static function redactUrls(string $text): string
    {
        return (string) preg_replace(self::URL_CREDENTIALS, '$1[REDACTED]@', $text);
    }

    /** @param array<mixed> $values */
    private function write(string $level, string $message, array $values): void
    {
        try {
            $parts = [$message];
            foreach ($values as $value) {
                $parts[] = match (true) {
                    \is_string($value) => $value,
                    $value instanceof \Throwable => self::error($value),
                    default => Text::json($value),
                };
            }
            ($this->logger)($level, $this->redact('[svc] ' . implode(' ', $parts)));
        } catch (\Throwable) {
            // A broken logger never breaks the host.
        }
    }

    /** `AuthException: message`, then `(caused by ...)` for each previous exception. */
    private static function error(\Throwable $e): string
    {
        $text = '';
        for ($depth = 0; $e !== null && $depth < 5; $e = $e->getPrevious(), $depth++) {
            $name = str_starts_with($e::class, 'Svc\\Exception\\') ? substr($e::class, 14) : $e::class;
            $text .= ($depth === 0 ? '' : ' (caused by ') . $name . ': ' . $e->getMessage();
        }
        return $text . str_repeat(')', max(0, $depth - 1));
    }
}
