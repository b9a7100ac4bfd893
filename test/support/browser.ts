import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';

const ROOT = join(__dirname, '..', '..');
/** Where SCREENSHOTS=1 puts the pictures the README shows. */
export const SCREENSHOT_DIR = join(ROOT, 'docs', 'screenshots');
const VIEWPORT = { width: 1280, height: 800 };

/** Installs Chromium from Debian's packages if it is missing (the project's own script); its path. */
export function ensureChromium(): string {
  const result = spawnSync('sh', [join(ROOT, 'scripts', 'ensure-chromium.sh')], { encoding: 'utf8', timeout: 300_000 });
  if (result.status !== 0) throw new Error(`Chromium could not be installed: ${result.stderr}${result.stdout}`);
  const found = spawnSync('sh', ['-c', 'command -v chromium'], { encoding: 'utf8' }).stdout.trim();
  return found || '/usr/bin/chromium';
}

/**
 * A browser page that remembers every page error and console error (Chromium reports a
 * Content-Security-Policy violation as one), so a test can require that there were none.
 */
export interface WatchedPage {
  page: Page;
  /** What went wrong in the page so far, as `pageerror: …` / `console: …` lines. */
  errors: string[];
  /**
   * Console errors the test causes on purpose (the browser logs every 401 a fetch receives):
   * the ones matching `pattern` are not counted from now on.
   */
  allowConsoleError(pattern: RegExp): void;
  /** Saves docs/screenshots/<name>.png (1280×800) when SCREENSHOTS=1; does nothing otherwise. */
  screenshot(name: string): Promise<void>;
}

export interface TestBrowser {
  browser: Browser;
  /** A fresh context (its own sessionStorage and localStorage) with one watched page, in English unless told. */
  newPage(options?: { locale?: string }): Promise<WatchedPage>;
  close(): Promise<void>;
}

/** Launches headless Chromium through playwright-core (no browser download: Debian's package). */
export async function launchBrowser(): Promise<TestBrowser> {
  const executablePath = ensureChromium();
  const browser = await chromium.launch({
    executablePath,
    headless: true,
    // Root (CI containers) cannot use Chromium's sandbox.
    args: [...(process.getuid?.() === 0 ? ['--no-sandbox'] : []), '--disable-dev-shm-usage', '--disable-gpu'],
  });
  return {
    browser,
    async newPage(options = {}) {
      const locale = options.locale ?? 'en-US';
      const context = await browser.newContext({ viewport: VIEWPORT, locale, extraHTTPHeaders: { 'accept-language': locale } });
      const page = await context.newPage();
      return watch(page);
    },
    close: () => browser.close(),
  };
}

function watch(page: Page): WatchedPage {
  const errors: string[] = [];
  const allowed: RegExp[] = [];
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    const text = `${message.text()} (${message.location().url})`;
    if (!allowed.some((pattern) => pattern.test(text))) errors.push(`console: ${text}`);
  });
  return {
    page,
    errors,
    allowConsoleError: (pattern) => void allowed.push(pattern),
    async screenshot(name) {
      if (process.env.SCREENSHOTS !== '1') return;
      mkdirSync(SCREENSHOT_DIR, { recursive: true });
      await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}.png`) });
    },
  };
}
