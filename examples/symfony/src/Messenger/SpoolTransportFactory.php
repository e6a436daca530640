<?php

namespace App\Messenger;

use Symfony\Component\Messenger\Transport\Serialization\SerializerInterface;
use Symfony\Component\Messenger\Transport\TransportFactoryInterface;
use Symfony\Component\Messenger\Transport\TransportInterface;

/**
 * `spool://<dir>`: a Messenger transport on files in a directory (relative to the project), so the
 * example's worker runs without a database or broker. Apps use Doctrine, Redis or AMQP instead.
 */
final class SpoolTransportFactory implements TransportFactoryInterface
{
    public function __construct(private string $projectDir)
    {
    }

    public function createTransport(string $dsn, array $options, SerializerInterface $serializer): TransportInterface
    {
        $dir = substr($dsn, \strlen('spool://'));
        return new SpoolTransport(str_starts_with($dir, '/') ? $dir : "{$this->projectDir}/{$dir}", $serializer);
    }

    public function supports(string $dsn, array $options): bool
    {
        return str_starts_with($dsn, 'spool://');
    }
}
