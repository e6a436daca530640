<?php

declare(strict_types=1);

namespace Svc\Internal;

use Svc\Generated\Service;

/**
 * What a client is built from its options: the describer, the location finder, the base tags and
 * the delivery, and whether it may send at all. Every problem found here is a warning on the debug
 * channel (shown even with `debug` off), never an exception into the host.
 *
 * @internal
 */
final class Wiring
{
    /** @param list<string> $baseTags */
    private function __construct(
        public readonly Describe $describe,
        public readonly ?Location $location,
        public readonly array $baseTags,
        public readonly Delivery $delivery,
        public readonly bool $ready,
        public readonly ?OutageNote $outageNote,
    ) {
    }

    /**
     * @param \Closure(): float $now milliseconds
     * @param \Closure(): float $random
     */
    public static function build(Config $config, Debug $debug, Deps $deps, mixed $serviceUrl, \Closure $now, \Closure $random, string $userAgent): self
    {
        $env = $deps->env ?? Deps::environment(...);
        $paths = new Paths($config->string('projectRoot'), $deps->entryScript ?? Paths::entryScript());
        $baseTags = Tags::add([], $config->values['defaultTags']);
        foreach (['env' => 'environment', 'release' => 'release'] as $prefix => $option) {
            $value = $config->string($option);
            $baseTags = Tags::add($baseTags, $value === null ? [] : ["{$prefix}:{$value}"]);
        }
        $logLocally = $config->bool('logLocally');
        $credentials = Credentials::pick($config->string('apiKey'), $config->string('keyId'), $config->string('signingSecret'));
        foreach ($credentials->warnings as $warning) {
            $debug->warn($warning);
        }
        $ready = $credentials->scheme !== null || $logLocally;
        $address = ServiceAddress::resolve($env(Service::URL_ENV), $serviceUrl);
        if ($address->warning !== null) {
            $debug->warn($address->warning);
            $ready = false;
        }
        $sealer = null;
        $publicKey = $config->string('encryptionPublicKey');
        if ($publicKey !== null) {
            $sealer = Sealer::create($publicKey, $config->string('encryptionKeyId'));
            if ($sealer === null) {
                $debug->warn(\function_exists('sodium_crypto_box_seal')
                    ? 'encryptionPublicKey is not base64 of 32 bytes: client disabled, nothing is sent'
                    : 'encryptionPublicKey is set but the sodium extension (ext-sodium) is not available: client disabled, nothing is sent'
                        . ' (reports are never sent unencrypted; install or enable ext-sodium)');
                $ready = false;
            }
        }
        if (!$logLocally && $deps->transport === null && !\function_exists('curl_init')) {
            $debug->warn('the curl extension is missing (Debian: php-curl): client disabled, nothing is sent');
            $ready = false;
        }
        $delivery = new Delivery(
            (string) $address->url,
            $config->bool('hideApiResponse'),
            $credentials,
            $logLocally ? null : $sealer,
            $deps->transport ?? new CurlTransport($userAgent),
            $debug,
            new Warnings((string) $address->url, $debug),
            $now,
            $deps->sleep ?? static function (int $ms): void {
                usleep($ms * 1000);
            },
            $random,
        );
        return new self(
            new Describe($paths),
            $config->bool('captureLocation') ? new Location($paths) : null,
            $baseTags,
            $delivery,
            $ready,
            $deps->outageNotes === false || $address->url === null ? null : new OutageNote($deps->outageNotes ?? sys_get_temp_dir(), $address->url),
        );
    }
}
