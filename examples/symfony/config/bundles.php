<?php

return [
    Symfony\Bundle\FrameworkBundle\FrameworkBundle::class => ['all' => true],
    Svc\Symfony\SvcBundle::class => ['all' => true],
];
