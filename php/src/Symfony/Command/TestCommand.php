<?php

declare(strict_types=1);

namespace Svc\Symfony\Command;

use Svc\Client;
use Svc\Integration\TestReport;
use Symfony\Component\Console\Attribute\AsCommand;
use Symfony\Component\Console\Command\Command;
use Symfony\Component\Console\Input\InputInterface;
use Symfony\Component\Console\Output\OutputInterface;

/** `bin/console svc:test`: sends one test report now and prints what became of it (exit 0 when it arrived). */
#[AsCommand(name: 'svc:test', description: 'Send a test report to Svc and print the outcome')]
final class TestCommand extends Command
{
    /** @var string|null */
    protected static $defaultName = 'svc:test';

    /** @var string|null */
    protected static $defaultDescription = 'Send a test report to Svc and print the outcome';

    public function __construct(private readonly Client $svc)
    {
        parent::__construct();
    }

    protected function execute(InputInterface $input, OutputInterface $output): int
    {
        [$ok, $lines] = TestReport::send($this->svc, 'bin/console svc:test');
        foreach ($lines as $line) {
            $output->writeln($ok ? "<info>{$line}</info>" : "<error>{$line}</error>");
        }
        return $ok ? 0 : 1;
    }
}
