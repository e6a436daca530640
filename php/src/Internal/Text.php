<?php

declare(strict_types=1);

namespace Svc\Internal;

/**
 * Text helpers shared by the payload, tags and description code: clamps that count Unicode code
 * points (never splitting a multi-byte character), a trim with JavaScript's notion of whitespace (so
 * both SDKs send the same bytes), and the one JSON encoding of the wire.
 */
final class Text
{
    /** JSON as `JSON.stringify` writes it: slashes, Unicode and line terminators unescaped. */
    public const JSON_FLAGS = JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE | JSON_UNESCAPED_LINE_TERMINATORS
        | JSON_INVALID_UTF8_SUBSTITUTE | JSON_PARTIAL_OUTPUT_ON_ERROR;

    /** Whitespace as ECMAScript's `String.prototype.trim` defines it. */
    private const SPACE = '[\t\n\x{0B}\f\r \x{A0}\x{1680}\x{2000}-\x{200A}\x{2028}\x{2029}\x{202F}\x{205F}\x{3000}\x{FEFF}]';

    /** Valid UTF-8: invalid byte sequences become U+FFFD. */
    public static function utf8(string $text): string
    {
        if (mb_check_encoding($text, 'UTF-8')) {
            return $text;
        }
        return (string) json_decode((string) json_encode($text, JSON_INVALID_UTF8_SUBSTITUTE));
    }

    /**
     * The first `$max` code points of `$text`. Text that fits in `$max` bytes is returned as is
     * (invalid UTF-8 in it becomes U+FFFD when the payload is encoded, as here).
     */
    public static function clamp(string $text, int $max): string
    {
        if (\strlen($text) <= $max) {
            return $text;
        }
        $text = self::utf8($text);
        if (mb_strlen($text, 'UTF-8') <= $max) {
            return $text;
        }
        return mb_substr($text, 0, $max, 'UTF-8');
    }

    /** The last `$max` code points (file names keep their end, where the file is named). */
    public static function clampStart(string $text, int $max): string
    {
        if (\strlen($text) <= $max) {
            return $text;
        }
        $text = self::utf8($text);
        $length = mb_strlen($text, 'UTF-8');
        return $length <= $max ? $text : mb_substr($text, $length - $max, null, 'UTF-8');
    }

    /** Trims JavaScript whitespace from both ends. */
    public static function trim(string $text): string
    {
        $length = \strlen($text);
        if ($length === 0) {
            return '';
        }
        // Fast path: printable ASCII at both ends (every other JavaScript space is non-ASCII).
        [$first, $last] = [\ord($text[0]), \ord($text[$length - 1])];
        if ($first > 0x20 && $first < 0x7F && $last > 0x20 && $last < 0x7F) {
            return $text;
        }
        $text = self::utf8($text);
        return (string) preg_replace('/^' . self::SPACE . '+|' . self::SPACE . '+$/u', '', $text);
    }

    public static function json(mixed $value): string
    {
        return (string) json_encode($value, self::JSON_FLAGS);
    }
}
