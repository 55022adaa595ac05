/**
 * What people type expecting the chat server — `tiny-claw serve`, as the original had it — which
 * is a program of its own here.
 */
export const serverCommands: readonly string[] = ['serve', 'server'];

/**
 * Why `tiny-claw serve` is no command and where the server is: `tiny-claw-server` of the
 * `@tiny-claw/server` package, how to start it and its flags.
 *
 * @example
 * throw new UsageError(serverPointer('serve'));
 */
export function serverPointer(command: string): string {
  return [
    `${JSON.stringify(command)} is not a tiny-claw command: the server that drives the agent from`,
    'Feishu / Lark chats is a separate program, tiny-claw-server, from the @tiny-claw/server package',
    '(part of the tiny-claw repository, not published to npm). Start it in the repository with:',
    '  pnpm install && pnpm build',
    '  pnpm exec tiny-claw-server --host 127.0.0.1 --port 8000',
    'Its flags: --host H, --port P, --feishu-path PATH, --mode M, --max-steps N, --env-file PATH,',
    "--allow-root-workdir ('pnpm exec tiny-claw-server --help'); apps/server/README.md shows how to",
    'connect a Feishu app.',
  ].join('\n');
}
