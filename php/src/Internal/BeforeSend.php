<?php

declare(strict_types=1);

namespace Svc\Internal;

/**
 * `beforeSend` (contract 8.5): the host's function gets the located payload and returns it changed,
 * or null to drop the report. Throwing, or returning anything but an array, drops it too (a broken
 * scrubber never leaks); the result is checked again (`Payload::sanitize`).
 */
final class BeforeSend
{
    /**
     * @param array<string, mixed> $payload
     * @return array<string, mixed>|null
     */
    public static function apply(callable $beforeSend, array $payload, Tally $tally, Debug $debug): ?array
    {
        try {
            $result = $beforeSend($payload);
        } catch (\Throwable $error) {
            $debug->debug('beforeSend threw; report dropped:', $error);
            $result = null;
        }
        if (!\is_array($result)) {
            if ($result !== null) {
                $debug->debug('beforeSend returned ' . get_debug_type($result) . ' (not an array or null); report dropped');
            }
            $tally->count('beforeSend');
            return null;
        }
        return Payload::sanitize($result, $payload);
    }
}
