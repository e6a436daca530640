<?php

declare(strict_types=1);

namespace Svc\Integration;

use Svc\Client;
use Svc\Internal\Debug;
use Svc\Internal\Location;

/**
 * The test report of the `svc:test` commands: one minor card, sent now, and the outcome in words.
 *
 * @internal shared by the Laravel and Symfony commands
 */
final class TestReport
{
    public const TITLE = 'Svc test report';

    /** @return array{bool, list<string>} whether it arrived, and what to print */
    public static function send(Client $svc, string $command): array
    {
        Location::skippingDependencies(static fn () => $svc->minor(self::TITLE, "Sent by `{$command}` to check the setup; safe to close.", ['svc:test']));
        $result = $svc->flush();
        if ($result->sent > 0) {
            return [true, ['Svc: the test report arrived: new card "' . self::TITLE . '".']];
        }
        if ($result->deduplicated > 0) {
            return [true, ['Svc: the test report arrived: counted on the existing card "' . self::TITLE . '".']];
        }
        if ($result->failed > 0 || $result->unavailable !== null) {
            $lines = ['Svc: the test report was not delivered' . ($result->failed > 0 ? ':' : ' (the service did not take it):')];
            foreach ($result->failed > 0 ? $result->errors : [$result->unavailable] as $error) {
                $cause = $error->getPrevious() === null ? '' : ' (' . $error->getPrevious()->getMessage() . ')';
                $lines[] = Debug::redactUrls('  ' . (new \ReflectionClass($error))->getShortName() . ': ' . $error->getMessage() . $cause);
            }
            return [false, $lines];
        }
        foreach ($result->dropped as $reason => $count) {
            if ($count > 0) {
                return [false, ["Svc: the test report was dropped ({$reason}): no card was made."]];
            }
        }
        return [false, ['Svc: nothing was sent: the client is disabled (see the [svc] warning above: credentials, SERVICE_URL, enabled).']];
    }
}
