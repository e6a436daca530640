<?php

namespace App\Controller;

use App\Message\ChargeCard;
use Psr\Log\LoggerInterface;
use Svc\Client;
use Symfony\Component\HttpFoundation\Response;
use Symfony\Component\Messenger\MessageBusInterface;

class DemoController
{
    public function index(): Response
    {
        return new Response('Svc + Symfony example: try /boom, /orders/42, /log and /orders/42/charge');
    }

    /** An uncaught exception: Symfony answers its usual 500 page, the bundle reports it. */
    public function boom(): Response
    {
        throw new \RuntimeException('boom: the checkout service is down');
    }

    /** The card's title names the route pattern (`GET /orders/{id}`), never the URL: one card for every order. */
    public function order(int $id): Response
    {
        throw new \RuntimeException("order {$id} has no lines");
    }

    /** A log record at error level through a Monolog logger with the Svc handler. */
    public function log(LoggerInterface $appLogger): Response
    {
        $appLogger->error('Payment provider timed out for order {order}', ['order' => 42]);
        return new Response('logged');
    }

    /**
     * A report made while the page still has work to do: it goes out after the response is sent
     * (`kernel.terminate`), and a service that is down or hung holds this worker at most
     * timeoutMs + 1 s in its life.
     */
    public function restock(Client $svc): Response
    {
        $svc->moderateHigh('Inventory below threshold', 'sku ABC-1 has 2 left', ['inventory']);
        usleep(200_000); // the rest of the page's work
        return new Response('restocked');
    }

    /** Queues a message whose handler fails in the worker (`bin/console messenger:consume async`). */
    public function charge(int $id, MessageBusInterface $bus): Response
    {
        $bus->dispatch(new ChargeCard($id));
        return new Response('queued');
    }
}
