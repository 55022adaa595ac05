/**
 * What a timed-out command looks like, which decides the advice: a long-running service must be
 * started in the background and probed, a test or build must be narrowed, anything else too.
 *
 * @example
 * const kind: CommandKind = commandKind('npm run dev');
 */
export type CommandKind = 'service' | 'test_or_build' | 'other';

// Matched on ` <lowercased command> ` so a marker only hits whole words (`vite` but not `vitest`).
const SERVICE_MARKERS = [
  ' serve ',
  ' runserver ',
  ' uvicorn ',
  ' gunicorn ',
  ' flask run ',
  ' npm run dev ',
  ' npm start ',
  ' pnpm dev ',
  ' pnpm run dev ',
  ' pnpm start ',
  ' yarn dev ',
  ' yarn start ',
  ' next dev ',
  ' vite ',
  ' nodemon ',
  ' python -m http.server ',
  ' python3 -m http.server ',
  ' http-server ',
  ' tail -f ',
  ' watch ',
  ' docker compose up ',
];

// Prefix markers (` pytest` also hits `pytest-xdist`); `test ` and `build ` are whole words.
const TEST_OR_BUILD_MARKERS = [
  ' pytest',
  ' ruff',
  ' mypy',
  ' test ',
  ' tests/',
  ' build ',
  ' compile ',
  ' npm test',
  ' pnpm test',
  ' yarn test',
  ' vitest',
  ' jest',
  ' tsc ',
  ' make ',
];

/** Lowercased, whitespace collapsed, padded with spaces so markers can match whole words. */
function padded(command: string): string {
  return ` ${command.toLowerCase().replace(/\s+/g, ' ').trim()} `;
}

/**
 * Classify a command by the service and test/build words it contains (a service wins: `vite`
 * in a watch mode never ends however narrow it is).
 *
 * @example
 * commandKind('python3 -m http.server 8000'); // 'service'
 * commandKind('pnpm test -- src/a.test.ts'); // 'test_or_build'
 * commandKind('find / -name x'); // 'other'
 */
export function commandKind(command: string): CommandKind {
  const text = padded(command);
  if (SERVICE_MARKERS.some((marker) => text.includes(marker))) return 'service';
  if (TEST_OR_BUILD_MARKERS.some((marker) => text.includes(marker))) return 'test_or_build';
  return 'other';
}
