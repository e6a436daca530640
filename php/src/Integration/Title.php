<?php

declare(strict_types=1);

namespace Svc\Integration;

use Svc\Internal\Text;

/**
 * One card title format for every framework integration, the same as the TypeScript integrations
 * give: a card groups on its title (contract 4), so a title holds the error's class, the first line
 * of its message with the per-event parts masked, and where it happened (a route pattern, a
 * command, a job: the place of the failure table, `Failures::place`), never a concrete URL:
 * `RuntimeException: order <n> has no lines (POST /orders/{id})`.
 * The message and trace themselves go into the description, unmasked.
 *
 * @internal shared by the Laravel, Symfony and Monolog integrations
 */
final class Title
{
    /** Longest message part of a title; the place after it stays visible. */
    private const MESSAGE_MAX = 120;

    /** Per-event parts of a message and what replaces them, applied in this order. */
    private const VOLATILE = [
        '~\b[a-z][a-z0-9+.-]*://[^\s\'"`<>)\]]+~iu' => '<url>',
        '~[\w.+-]+@[\w-]+(\.[\w-]+)+~u' => '<email>',
        // A quote that opens and closes outside a word (so `can't` and `user's` are no quotes).
        '~(?<!\w)(\'[^\'\n]*\'|"[^"\n]*"|`[^`\n]*`)(?!\w)~u' => '<value>',
        '~\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b~iu' => '<uuid>',
        // Hex with a letter and a digit (all digits is a number, below).
        '~\b(?=\d*[a-f])(?=[a-f]*\d)[0-9a-f]{8,}\b~iu' => '<hash>',
        '~\b(?=[a-z_-]*\d)(?=\w*[a-z])[\w-]{8,}\b~iu' => '<id>',
        '~(?<![\w.])-?\d+(\.\d+)?(?![\w.])~u' => '<n>',
    ];

    /** `$text` with numbers, ids, uuids, hashes, URLs, e-mail addresses and quoted values masked. */
    public static function mask(string $text): string
    {
        $text = Text::utf8($text);
        foreach (self::VOLATILE as $pattern => $placeholder) {
            $text = preg_replace($pattern, $placeholder, $text) ?? $text;
        }
        return $text;
    }

    /** The first non-blank line of `$message`, masked and shortened. */
    public static function stableMessage(string $message): string
    {
        $line = '';
        foreach (explode("\n", $message) as $candidate) {
            if (trim($candidate) !== '') {
                $line = trim($candidate);
                break;
            }
        }
        $masked = self::mask($line);
        return mb_strlen($masked) > self::MESSAGE_MAX ? mb_substr($masked, 0, self::MESSAGE_MAX - 3) . '...' : $masked;
    }

    /**
     * The card title of `$error` at `$place`: `Class: masked message (place)`, or `Class (place)`
     * without a message. The class is the fully qualified name (`App\Billing\PaymentFailed`).
     */
    public static function of(\Throwable $error, ?string $place = null): string
    {
        $message = self::stableMessage($error->getMessage());
        return self::join($message === '' ? $error::class : $error::class . ': ' . $message, $place);
    }

    /** The card title of a log message (no exception) at `$place`: the masked first line. */
    public static function ofMessage(string $message, ?string $place = null): string
    {
        $masked = self::stableMessage($message);
        return self::join($masked === '' ? 'Log record' : $masked, $place);
    }

    /**
     * The `{route}` of a request for the failure table's place (`GET {route}`): the route pattern
     * when known (`/orders/{id}`), else the path with ids masked, never the concrete URL.
     */
    public static function route(?string $pattern, string $path): string
    {
        if ($pattern !== null && $pattern !== '') {
            return '/' . ltrim($pattern, '/');
        }
        $clean = (string) strtok($path, '?#');
        return self::mask($clean === '' ? '/' : $clean);
    }

    private static function join(string $head, ?string $place): string
    {
        return $place === null || $place === '' ? $head : "{$head} ({$place})";
    }
}
