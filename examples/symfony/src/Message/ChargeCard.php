<?php

namespace App\Message;

final class ChargeCard
{
    public function __construct(public readonly int $orderId)
    {
    }
}
