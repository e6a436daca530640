<?php

namespace App\MessageHandler;

use App\Message\ReconcileStock;
use Svc\Client;
use Symfony\Component\Messenger\Handler\MessageHandlerInterface;

/** Reports a finding, then works on (0.2 s) and succeeds: the worker delivers after the message. */
final class ReconcileStockHandler implements MessageHandlerInterface
{
    public function __construct(private Client $svc)
    {
    }

    public function __invoke(ReconcileStock $message): void
    {
        $this->svc->minor('Stock count differs from the ledger', "warehouse {$message->warehouse}: 3 units unaccounted for", ['inventory']);
        usleep(200_000); // the rest of the reconciliation
    }
}
