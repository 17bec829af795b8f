import 'reflect-metadata';
import net from 'node:net';
import { findChromium, HeadlessChromium } from './support/headless-chromium.js';
import { startTestApi, type TestApi } from './support/test-api.js';

// Swagger UI in a real browser under the docs page's Content-Security-Policy: it renders every
// operation and "Try it out" calls the API, with no CSP violation, error or failed request. Needs
// Chromium (`CHROMIUM` or `chromium` on the PATH), so it runs with `npm run test:system`, not
// `npm test`; without Chromium it fails and says so.

const chromium = findChromium();
if (!chromium) throw new Error('Chromium was not found (set CHROMIUM, or on Debian: apt-get install chromium)');

/** A port nothing listens on now. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}
describe('Swagger UI in headless Chromium', () => {
  let api: TestApi;
  let browser: HeadlessChromium;
  beforeAll(async () => {
    // The OpenAPI server (PUBLIC_BASE_URL) is another origin than the page's (127.0.0.1 vs
    // localhost): "Try it out" crosses origins, as it does behind a gateway.
    const port = await freePort();
    api = await startTestApi({ PORT: String(port), PUBLIC_BASE_URL: `http://localhost:${port}` });
    browser = await HeadlessChromium.launch(chromium!);
  }, 60_000);
  afterAll(async () => {
    try {
      await browser?.close();
    } finally {
      await api?.close();
    }
  });

  it('renders every operation with no CSP violation, error or failed request, and "Try it out" calls the API', async () => {
    await browser.open(`${api.origin}/api/2.0/docs`, 'document.querySelectorAll(".opblock").length > 40');
    const operations = await browser.evaluate<number>('document.querySelectorAll(".opblock").length');
    const openApi = (await api.request('GET', '/docs-json')).body as { paths: Record<string, object> };
    expect(operations).toBe(Object.values(openApi.paths).reduce((n, methods) => n + Object.keys(methods).length, 0));

    await browser.evaluate(`(async () => {
      const op = [...document.querySelectorAll('.opblock.opblock-get')].find((o) => o.querySelector('.opblock-summary-path')?.textContent === '/api/2.0/categories');
      op.querySelector('.opblock-summary-control').click();
    })()`);
    await browser.waitFor(`document.querySelector('.opblock.is-open .try-out__btn')`);
    await browser.evaluate(`document.querySelector('.opblock.is-open .try-out__btn').click()`);
    await browser.waitFor(`document.querySelector('.opblock.is-open .execute')`);
    await browser.evaluate(`document.querySelector('.opblock.is-open .execute').click()`);
    await browser.waitFor(`document.querySelector('.opblock.is-open .live-responses-table .response .response-col_status')`);
    const answer = await browser.evaluate<{ status: string; url: string }>(`({
      status: document.querySelector('.opblock.is-open .live-responses-table .response .response-col_status').textContent.trim(),
      url: document.querySelector('.opblock.is-open .request-url pre')?.textContent ?? '',
    })`);
    expect(answer).toEqual({ status: '200', url: `http://localhost:${new URL(api.origin).port}/api/2.0/categories` });

    expect(await browser.report()).toEqual({ violations: [], errors: [], exceptions: [], failedRequests: [] });
  });

  it('the check sees a violation when there is one (an inline script is refused)', async () => {
    await browser.evaluate(`(() => { const s = document.createElement('script'); s.textContent = 'window.__ran = true'; document.body.append(s); })()`);
    await browser.waitFor('window.__violations.length > 0', 5_000);
    expect(await browser.evaluate('window.__ran === true')).toBe(false);
    expect((await browser.report()).violations).toEqual([expect.stringMatching(/^script-src-elem inline/)]);
  });
});
