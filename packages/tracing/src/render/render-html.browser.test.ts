import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleTrace, XSS_PAYLOAD } from './__fixtures__/sample-trace.js';
import { renderTraceHtml } from './render-html.js';

// Debian's chromium package; CI installs it (.ci/run). Playwright's own browser downloads are not used.
const CHROMIUM = '/usr/bin/chromium';
const LAUNCH_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const MISSING = `${CHROMIUM} not found: install Debian's chromium package (apt-get install chromium) to run the HTML viewer test`;

const hasChromium = existsSync(CHROMIUM);

// The one page global these checks call. Declared here because the package compiles without the DOM
// lib; the functions passed to evaluate() run in the page, where it exists.
declare const getComputedStyle: (element: unknown) => { backgroundColor: string };

describe('the trace page in headless Chromium', () => {
  if (!hasChromium) {
    // CI must never pass without having looked at the page; a laptop without Chromium says so and moves on.
    if (process.env.CI) {
      it('needs Chromium', () => {
        throw new Error(MISSING);
      });
    } else {
      it.skip(`skipped: ${MISSING}`, () => {});
    }
    return;
  }

  let dir: string;
  let context: BrowserContext;
  let page: Page;
  const requests: string[] = [];
  const dialogs: string[] = [];
  const problems: string[] = [];
  let fileUrl: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tiny-claw-trace-html-'));
    const file = join(dir, 'trace.html');
    await writeFile(file, renderTraceHtml(sampleTrace()));
    fileUrl = pathToFileURL(file).href;
    // A fresh profile per run: launchPersistentContext is how Playwright takes --user-data-dir.
    context = await chromium.launchPersistentContext(join(dir, 'profile'), {
      executablePath: CHROMIUM,
      headless: true,
      args: LAUNCH_ARGS,
      offline: true,
    });
    // Anything but the page itself is a network request the viewer promised not to make.
    context.on('request', (request) => {
      if (request.url() !== fileUrl) requests.push(request.url());
    });
    await context.route('**/*', (route) => {
      if (route.request().url() === fileUrl) return route.continue();
      requests.push(route.request().url());
      return route.abort();
    });
    page = context.pages()[0] ?? (await context.newPage());
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    await page.goto(fileUrl);
    // Starting Chromium takes well under a second on an idle machine and much longer on a loaded CI
    // runner running every package's tests at once.
  }, 120_000);

  afterAll(async () => {
    await context?.close();
    // Chromium's helper processes can still be writing into the profile for a moment after close.
    if (dir) await rm(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
  }, 60_000);

  const span = (kind: string, name: string) =>
    page.locator(`details.span[data-kind="${kind}"]`).filter({
      has: page.locator(':scope > summary .name', { hasText: new RegExp(`^${name}$`) }),
    });

  it('renders every span, the header and the summary', async () => {
    expect(await page.locator('details.span').count()).toBe(14);
    expect(await page.locator('h1').textContent()).toContain('trace-0001');
    expect(await page.locator('.meta').textContent()).toContain('cli-1a2b3c4d5e6f-default');
    expect(await span('agent.run', 'tiny_claw.run').locator(':scope > summary').isVisible()).toBe(
      true,
    );
    expect(await span('agent.step', 'step.3').locator(':scope > summary').isVisible()).toBe(true);
  });

  it('expands a collapsed node on click, showing its children and attributes', async () => {
    const explore = span('tool.call', 'explore');
    const subagent = span('subagent.run', 'explorer').locator(':scope > summary');
    expect(await explore.getAttribute('open')).toBeNull();
    expect(await subagent.isVisible()).toBe(false);
    await explore.locator(':scope > summary').click();
    expect(await explore.getAttribute('open')).toBe('');
    expect(await subagent.isVisible()).toBe(true);
    const attributes = explore.locator(':scope > .body > table.attributes');
    expect(await attributes.isVisible()).toBe(true);
    expect(await attributes.textContent()).toContain('tool_call_index');
  });

  it('highlights the failed span with its error', async () => {
    const write = span('tool.call', 'write');
    expect(await write.getAttribute('class')).toContain('failed');
    const error = write.locator(':scope > summary .error-text');
    expect(await error.isVisible()).toBe(true);
    expect(await error.textContent()).toContain('ToolError: path escapes the workdir');
    const background = (locator: ReturnType<typeof span>) =>
      locator.locator(':scope > summary').evaluate((el) => getComputedStyle(el).backgroundColor);
    expect(await background(write)).not.toBe(await background(span('agent.step', 'step.1')));
    const bar = (locator: ReturnType<typeof span>) =>
      locator
        .locator(':scope > summary .bar')
        .evaluate((el) => getComputedStyle(el).backgroundColor);
    expect(await bar(write)).not.toBe(await bar(span('agent.step', 'step.1')));
  });

  it('draws timeline bars proportional to each span', async () => {
    const width = (locator: ReturnType<typeof span>) =>
      locator.locator(':scope > summary .bar').evaluate((el) => el.getBoundingClientRect().width);
    const run = await width(span('agent.run', 'tiny_claw.run'));
    const step2 = await width(span('agent.step', 'step.2'));
    expect(run).toBeGreaterThan(100);
    expect(step2 / run).toBeCloseTo(990 / 2400, 1);
  });

  it('runs its own script under its CSP: expand all, collapse all, raw JSON', async () => {
    await page.getByRole('button', { name: 'Expand all' }).click();
    expect(await page.locator('details.span:not([open])').count()).toBe(0);
    await page.getByRole('button', { name: 'Collapse all' }).click();
    expect(await page.locator('details.span[open]').count()).toBe(0);
    await page.locator('#raw > summary').click();
    // The raw view is filled on the toggle event, which fires after the click returns.
    await page.locator('#raw-json', { hasText: 'trace_id' }).waitFor();
    const raw = await page.locator('#raw-json').textContent();
    expect(JSON.parse(raw ?? '')).toEqual(sampleTrace());
  });

  it('shows the XSS payload as text and never runs it', async () => {
    await page.getByRole('button', { name: 'Expand all' }).click();
    const cell = span('tool.call', 'read').first().locator(':scope > .body table.attributes');
    expect(await cell.textContent()).toContain(XSS_PAYLOAD);
    expect(
      await page.evaluate(() => (globalThis as { __pwned?: unknown }).__pwned),
    ).toBeUndefined();
    expect(dialogs).toEqual([]);
  });

  it('makes no network request and reports no script error', () => {
    expect(requests).toEqual([]);
    expect(problems).toEqual([]);
  });
});
