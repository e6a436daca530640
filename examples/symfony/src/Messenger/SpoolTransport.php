<?php

namespace App\Messenger;

use Symfony\Component\Messenger\Envelope;
use Symfony\Component\Messenger\Stamp\TransportMessageIdStamp;
use Symfony\Component\Messenger\Transport\Serialization\SerializerInterface;
use Symfony\Component\Messenger\Transport\TransportInterface;

/** One JSON file per message; a worker claims a file by renaming it, and deletes it when done. */
final class SpoolTransport implements TransportInterface
{
    public function __construct(private string $dir, private SerializerInterface $serializer)
    {
    }

    public function send(Envelope $envelope): Envelope
    {
        if (!is_dir($this->dir)) {
            mkdir($this->dir, 0777, true);
        }
        $id = sprintf('%020d-%s', hrtime(true), bin2hex(random_bytes(4)));
        file_put_contents("{$this->dir}/{$id}.tmp", json_encode($this->serializer->encode($envelope)));
        rename("{$this->dir}/{$id}.tmp", "{$this->dir}/{$id}.json");
        return $envelope->with(new TransportMessageIdStamp($id));
    }

    public function get(): iterable
    {
        foreach (glob("{$this->dir}/*.json") ?: [] as $file) {
            $claimed = substr($file, 0, -5) . '.claimed';
            if (@rename($file, $claimed)) {
                $envelope = $this->serializer->decode(json_decode((string) file_get_contents($claimed), true));
                return [$envelope->with(new TransportMessageIdStamp(basename($claimed)))];
            }
        }
        return [];
    }

    public function ack(Envelope $envelope): void
    {
        $this->forget($envelope);
    }

    public function reject(Envelope $envelope): void
    {
        $this->forget($envelope);
    }

    private function forget(Envelope $envelope): void
    {
        $id = $envelope->last(TransportMessageIdStamp::class)?->getId();
        if (\is_string($id)) {
            @unlink("{$this->dir}/{$id}");
        }
    }
}
