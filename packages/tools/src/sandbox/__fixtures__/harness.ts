import { createBashTool } from '../../bash/index.js';

// A stand-in for tiny-claw, started by a test with a secret in its own (initial) environment and
// an open file holding it on a high descriptor: it runs one bash command through the tool, with
// `{HARNESS_PID}` in the command replaced by its pid, and prints the tool's output as JSON.
const request = JSON.parse(process.argv[2] ?? '{}') as {
  workdir: string;
  command: string;
  sandbox: 'bwrap' | 'off';
};
const tool = createBashTool({ workdir: request.workdir, sandbox: request.sandbox });
const out = await tool.run(
  tool.parse({ command: request.command.replaceAll('{HARNESS_PID}', String(process.pid)) }),
  {
    workdir: request.workdir,
    signal: new AbortController().signal,
    toolCallId: 'call-1',
    runId: 'run-1',
    visibleTools: ['bash'],
  },
);
process.stdout.write(JSON.stringify(out));
