import { CONTENT_SECURITY_POLICY } from '../../web/headers';
import { startService, type TestService } from '../support/local-service';

/** The console's files on the local server: its paths, its headers, and the paths it leaves alone. */
describe('static files of the web console', () => {
  let service: TestService;

  beforeAll(async () => {
    service = await startService();
  });
  afterAll(() => service.close());

  const get = (path: string, init?: RequestInit) => fetch(`${service.baseUrl}${path}`, { redirect: 'manual', ...init });

  it('answers /console/ with the page, the strict CSP and the other security headers', async () => {
    // Act
    const response = await get('/console/');

    // Assess
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('content-security-policy')).toBe(
      "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; font-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
    );
    expect(CONTENT_SECURITY_POLICY).toBe(response.headers.get('content-security-policy'));
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('referrer-policy')).toBe('no-referrer');
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    expect(response.headers.get('cache-control')).toBe('no-cache');
    const html = await response.text();
    expect(html).toContain('<script type="module" src="/console/app.js"></script>');
    // No inline script or style: the CSP would refuse them.
    expect(html).not.toMatch(/<script>|<script(?![^>]*\bsrc=)[^>]*>|<style|style="/);
  });

  it('serves the bundle and its styles (uPlot’s included) with the same headers', async () => {
    const script = await get('/console/app.js');
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(script.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
    expect((await script.text()).length).toBeGreaterThan(10_000);
    const styles = await get('/console/app.css');
    expect(styles.headers.get('content-type')).toBe('text/css; charset=utf-8');
    const css = await styles.text();
    expect(css).toContain('.uplot');
    expect(css).toContain('.sign-in-card');
  });

  it('answers the console page for any path under /console/ that names no file (its own routes)', async () => {
    const page = await get('/console/links/42');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await page.text()).toContain('/console/app.js');
    const missingFile = await get('/console/missing.js');
    expect(missingFile.status).toBe(404);
    expect(missingFile.headers.get('x-frame-options')).toBe('DENY');
  });

  it('answers HEAD with the headers and no body', async () => {
    const response = await get('/console/app.js', { method: 'HEAD' });
    expect(response.status).toBe(200);
    expect(Number(response.headers.get('content-length'))).toBeGreaterThan(10_000);
    expect(response.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
    expect(await response.text()).toBe('');
  });

  it('refuses other methods with 405 and Allow', async () => {
    const response = await get('/console/', { method: 'POST', body: 'x=1' });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, HEAD');
  });

  it('leaves a bare /console and /docs to the redirect: they could be short codes', async () => {
    for (const path of ['/console', '/docs']) {
      const response = await get(path);
      expect(response.status).toBe(404);
      expect(response.headers.get('content-security-policy')).not.toBe(CONTENT_SECURITY_POLICY);
      expect(await response.text()).not.toContain('/console/app.js');
    }
  });
});
