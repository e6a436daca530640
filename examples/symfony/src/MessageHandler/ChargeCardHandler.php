<?php

namespace App\MessageHandler;

use App\Message\ChargeCard;
use Symfony\Component\Messenger\Handler\MessageHandlerInterface;

/** Fails: the Messenger worker reports the failure and flushes after the message, without exiting. */
final class ChargeCardHandler implements MessageHandlerInterface
{
    public function __invoke(ChargeCard $message): void
    {
        throw new \RuntimeException("card declined for order {$message->orderId} (messenger boom)");
    }
}
