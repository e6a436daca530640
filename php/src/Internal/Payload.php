<?php

declare(strict_types=1);

namespace Svc\Internal;

use Svc\Generated\Limits;

/**
 * Builds the wire payload of one report (contract 2.1), and re-validates what `beforeSend` returns.
 * Keys in wire order: severity, priority, title, tags, then description, file_name, line_number
 * when present (the same bytes as the TypeScript SDK; see spec/conformance).
 */
final class Payload
{
    /**
     * @param list<string> $baseTags defaultTags, env:, release: (already normalised)
     * @return array<string, mixed>
     */
    public static function build(
        string $severity,
        string $priority,
        mixed $title,
        mixed $description,
        mixed $tags,
        array $baseTags,
        Describe $describe,
    ): array {
        $text = $describe->render($description);
        $payload = [
            'severity' => $severity,
            'priority' => $priority,
            'title' => self::title($title, $text, $describe),
            'tags' => Tags::add($baseTags, $tags),
        ];
        if ($text !== null && $text !== '') {
            $payload['description'] = Text::clamp($text, Limits::SDK_DESCRIPTION_MAX);
        }
        return $payload;
    }

    /** A title from any value; an empty one falls back like the service does (first description line). */
    private static function title(mixed $title, ?string $description, Describe $describe): string
    {
        $text = Text::trim(\is_string($title) ? $title : ($describe->render($title) ?? ''));
        if ($text === '' && $description !== null) {
            foreach (explode("\n", $description) as $line) {
                $line = Text::trim($line);
                if ($line !== '') {
                    $text = $line;
                    break;
                }
            }
        }
        return Text::clamp($text === '' ? Limits::UNTITLED_TITLE : $text, Limits::TITLE_MAX);
    }

    /**
     * The result of `beforeSend`, checked against the original: severity and priority stay the
     * method's, unknown keys are removed, a missing or blank title keeps the original one.
     *
     * @param array<mixed> $result
     * @param array<string, mixed> $original
     * @return array<string, mixed>
     */
    public static function sanitize(array $result, array $original): array
    {
        $title = $result['title'] ?? null;
        $out = [
            'severity' => $original['severity'],
            'priority' => $original['priority'],
            'title' => \is_string($title) && Text::trim($title) !== '' ? Text::clamp($title, Limits::TITLE_MAX) : $original['title'],
            'tags' => Tags::add([], $result['tags'] ?? null),
        ];
        $description = $result['description'] ?? null;
        if (\is_string($description) && $description !== '') {
            $out['description'] = Text::clamp($description, Limits::SDK_DESCRIPTION_MAX);
        }
        $file = $result['file_name'] ?? null;
        if (\is_string($file) && $file !== '') {
            $out['file_name'] = Text::clamp($file, Limits::FILE_NAME_MAX);
        }
        $line = $result['line_number'] ?? null;
        if (\is_float($line) && floor($line) === $line && abs($line) < 2 ** 53) {
            $line = (int) $line;
        }
        if (\is_int($line) && $line >= Limits::LINE_NUMBER_MIN && $line <= Limits::LINE_NUMBER_MAX) {
            $out['line_number'] = $line;
        }
        return $out;
    }
}
