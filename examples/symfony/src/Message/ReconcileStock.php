<?php

namespace App\Message;

final class ReconcileStock
{
    public function __construct(public readonly int $warehouse)
    {
    }
}
