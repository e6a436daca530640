<?php

namespace App\Command;

use Symfony\Component\Console\Command\Command;
use Symfony\Component\Console\Input\InputInterface;
use Symfony\Component\Console\Output\OutputInterface;

/** A console command that fails: the bundle reports it (console.error) and flushes (console.terminate). */
final class SyncOrdersCommand extends Command
{
    protected static $defaultName = 'app:sync-orders';

    protected static $defaultDescription = 'A command that fails, to show console errors as cards';

    protected function execute(InputInterface $input, OutputInterface $output): int
    {
        $output->writeln('Syncing orders from the warehouse API...');
        throw new \RuntimeException('app:sync-orders failed: the warehouse API answered 503');
    }
}
