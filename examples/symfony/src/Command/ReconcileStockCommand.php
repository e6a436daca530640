<?php

namespace App\Command;

use App\Message\ChargeCard;
use App\Message\ReconcileStock;
use Symfony\Component\Console\Command\Command;
use Symfony\Component\Console\Input\InputInterface;
use Symfony\Component\Console\Input\InputOption;
use Symfony\Component\Console\Output\OutputInterface;
use Symfony\Component\Messenger\MessageBusInterface;

/** Queues a message whose handler fails, then messages that report and succeed (run them with messenger:consume). */
final class ReconcileStockCommand extends Command
{
    protected static $defaultName = 'app:reconcile-stock';

    protected static $defaultDescription = 'Queues a failing charge, then one stock reconciliation per warehouse';

    public function __construct(private MessageBusInterface $bus)
    {
        parent::__construct();
    }

    protected function configure(): void
    {
        $this->addOption('warehouses', null, InputOption::VALUE_REQUIRED, 'How many warehouses', '3');
    }

    protected function execute(InputInterface $input, OutputInterface $output): int
    {
        $this->bus->dispatch(new ChargeCard(7));
        foreach (range(1, (int) $input->getOption('warehouses')) as $warehouse) {
            $this->bus->dispatch(new ReconcileStock($warehouse));
        }
        $output->writeln('queued: one failing charge, then one reconciliation per warehouse');
        return Command::SUCCESS;
    }
}
