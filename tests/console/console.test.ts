import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { startTestService, type TestService } from '../support/service.js';
import { consoleBuilt, launch, shot } from './browser.js';

/**
 * The web console in a real browser (docs/decisions/0358): a writer models, writes and
 * publishes content, a reader's view shows it, an auditor finds its events and diff.
 */
describe('the web console, in Debian chromium', function () {
  this.timeout(180_000);
  let svc: TestService;
  let browser: Browser;
  let page: Page;
  const requested: string[] = [];

  before(async () => {
    await consoleBuilt();
    browser = await launch();
    svc = await startTestService();
    page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    page.setDefaultTimeout(15_000);
    page.on('request', (request) => requested.push(request.url()));
  });

  afterEach(async function () {
    if (this.currentTest?.state === 'failed') await shot(page, `failed-${this.currentTest.title.slice(0, 40).replace(/\W+/g, '-')}`);
  });

  after(async () => {
    await browser?.close();
    await svc?.stop();
  });

  const alert = () => page.getByRole('alert').first();
  /** Form controls of the page without a label (by \`for\`, wrapping, aria-label or aria-labelledby). */
  const unlabelled = () => page.evaluate<string[]>(`[...document.querySelectorAll('input, select, textarea')].filter((c) => !c.labels?.length && !c.getAttribute('aria-label') && !c.getAttribute('aria-labelledby')).map((c) => c.outerHTML)`);

  it('serves the page with a strict CSP naming the delivery origin', async () => {
    const response = await fetch(`${svc.base}/console/`);
    const csp = response.headers.get('content-security-policy') ?? '';
    expect(csp).to.include("default-src 'self'").and.include("script-src 'self'");
    expect(csp).to.include(`connect-src 'self' ${new URL(svc.delivery).origin}`);
    expect(csp).not.to.include('unsafe-inline');
    expect(await response.text()).not.to.match(/<script>(?!<\/)/);
    const missing = await fetch(`${svc.base}/console/assets/missing.js`);
    expect(missing.status).to.equal(404);
  });

  it('refuses a wrong credential with the server reason, then signs in with the token', async () => {
    await page.goto(`${svc.base}/console/`);
    await page.locator('input[name="token"]').fill('not-a-token');
    await page.locator('input[name="environment"]').fill(svc.env);
    await page.getByRole('button', { name: 'Sign in' }).click();
    expect(await alert().textContent()).to.match(/credential is unknown, revoked or does not match/);
    await page.locator('input[name="token"]').fill(svc.token);
    await page.locator('input[name="environment"]').fill('');
    await shot(page, 'sign-in-1280');
    // By keyboard: the token field, the environment field, then the button.
    await page.locator('input[name="token"]').focus();
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Collections' }).waitFor();
    expect(await page.evaluate('Object.keys(sessionStorage)')).to.deep.equal(['cms-console-session']);
    expect(await page.evaluate('Object.keys(localStorage)')).to.deep.equal([]);
  });

  it('builds a collection with three fields and publishes its schema', async () => {
    await page.getByLabel('Name', { exact: true }).fill('Articles');
    await page.getByLabel('Alias').fill('articles');
    await page.getByRole('button', { name: 'Create collection' }).click();
    await page.getByRole('link', { name: 'Articles' }).click();
    await page.getByRole('button', { name: 'Create draft version' }).click();
    const field = async (key: string, type: string, flags: string[], extra?: () => Promise<void>) => {
      await page.getByLabel('Field key').fill(key);
      await page.getByLabel('Type', { exact: true }).selectOption(type);
      await extra?.();
      for (const flag of flags) await page.getByLabel(flag, { exact: true }).check();
      await page.getByRole('button', { name: 'Add field', exact: true }).click();
      await page.getByRole('cell', { name: key, exact: true }).waitFor();
    };
    await field('title', 'string', ['required', 'localizable', 'searchable']);
    await field('views', 'integer', []);
    await field('related', 'reference', [], async () => {
      await page.getByLabel('Target collection (references)').selectOption({ label: 'articles' });
    });
    await page.getByRole('button', { name: 'Publish' }).click();
    await page.getByText('published as v1').first().waitFor();
    await page.getByText('Generated JSON Schema').click();
    expect(await page.locator('pre.json').first().textContent()).to.include('"x-localizable": true');
    await shot(page, 'writers-schema-1280');
    expect(await unlabelled()).to.deep.equal([]);
  });

  it('shows the server message of a refused write', async () => {
    await page.getByRole('button', { name: 'Delete version' }).click();
    expect(await alert().textContent()).to.include('The published version cannot be deleted.');
  });

  let resourceUrl = '';

  it('creates a resource through the generated form, with the validation error at its field', async () => {
    await page.getByLabel('title (en)').fill('Hello');
    await page.getByLabel('views', { exact: true }).fill('1.5');
    await page.getByRole('button', { name: 'Create resource' }).click();
    const views = page.locator('fieldset[data-field="views"]');
    expect(await views.locator('.field-error').textContent()).to.include('must be integer');
    await shot(page, 'writers-field-error-1280');
    await page.getByLabel('views', { exact: true }).fill('3');
    await page.getByRole('button', { name: 'Create resource' }).click();
    await page.getByRole('heading', { name: 'Revisions' }).waitFor();
    resourceUrl = page.url();
    await page.getByRole('button', { name: 'Edit current data' }).click();
    expect(await page.getByLabel('title (en)').inputValue()).to.equal('Hello');
    await page.getByLabel('title (en)').fill('Hello again');
    await page.getByRole('button', { name: 'Save revision' }).click();
    await page.getByText('#2').waitFor();
    expect(await page.locator('ol.rows li').nth(1).textContent()).to.include('published');
    await shot(page, 'writers-resource-1280');
  });

  it('connects the collection to a delivery API and shows what readers get', async () => {
    await page.getByRole('link', { name: 'Delivery APIs' }).click();
    await page.getByLabel('Name', { exact: true }).fill('Site');
    await page.getByLabel('Prefix').fill('site');
    await page.getByRole('button', { name: 'Create API' }).click();
    await page.getByRole('button', { name: 'Site' }).click();
    await page.getByRole('button', { name: 'Connect collection' }).click();
    await page.getByRole('button', { name: 'Preview articles' }).waitFor();
    const preview = page.locator('.preview pre.json');
    for (let i = 0; i < 20 && !((await preview.count()) && (await preview.textContent())?.includes('Hello again')); i++) {
      await page.getByRole('button', { name: 'Preview articles' }).click();
      await page.waitForTimeout(250);
    }
    expect(await preview.textContent()).to.include('Hello again');
    await shot(page, 'writers-delivery-1280');
  });

  it('finds the resource events and the diff of its two revisions in the audit views', async () => {
    const resource = decodeURIComponent(resourceUrl.split('/').pop()!);
    await page.getByRole('link', { name: 'Event log' }).click();
    await page.getByLabel('resource key').fill(resource);
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.getByRole('cell', { name: 'resource:create' }).waitFor();
    expect(await page.getByRole('cell', { name: 'revision:create' }).count()).to.equal(2);
    await page.getByRole('cell', { name: 'resource:create' }).locator('..').getByRole('link').click();
    await page.getByRole('heading', { name: 'Compare revisions' }).waitFor();
    await page.getByRole('button', { name: 'Show differences' }).click();
    const diff = page.getByLabel('Differences');
    expect(await diff.locator('.removed').first().textContent()).to.include('"en": "Hello"');
    expect(await diff.locator('.added').first().textContent()).to.include('"en": "Hello again"');
    await shot(page, 'auditors-history-1280');
    // The state as of a moment: before the resource existed, the server says so; later, its data then.
    await page.getByLabel('Moment', { exact: true }).fill('2020-01-01T00:00:00');
    await page.getByRole('button', { name: 'Show state' }).click();
    expect(await alert().textContent()).to.match(/not found|did not exist/i);
    await page.getByLabel('Moment', { exact: true }).fill('2099-01-01T00:00:00');
    await page.getByRole('button', { name: 'Show state' }).click();
    expect(await page.getByLabel('State as of a moment').locator('pre.json').textContent()).to.include('Hello again');
    await page.getByRole('link', { name: 'Hash chain' }).click();
    await page.getByText('Verified: the chain is unbroken').waitFor();
    expect(await page.locator('code.hash').textContent()).to.match(/^[0-9a-f]{64}$/);
  });

  it('creates a management key, signs in with it as public_key:secret_key, and shows a quota refusal', async () => {
    await page.getByRole('link', { name: 'Keys and roles' }).click();
    await page.getByLabel('Role name').fill('Editors');
    await page.getByRole('button', { name: 'Create role' }).click();
    expect(await alert().textContent()).to.include('The roles limit of 0 is reached.');
    await page.getByLabel('Description', { exact: true }).fill('console test');
    await page.getByRole('button', { name: 'Create key' }).click();
    const secret = JSON.parse((await page.getByRole('status').locator('pre').textContent())!) as { public_key: string; secret_key: string };
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.locator('input[name="token"]').fill(`${secret.public_key}:${secret.secret_key}`);
    await page.locator('input[name="environment"]').fill(svc.env);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('link', { name: 'Collections' }).click();
    await page.getByRole('link', { name: 'Articles' }).waitFor();
  });

  it('shows every view without sideways scrolling at 1280 x 800 and 390 x 844, and loads nothing from outside the service', async () => {
    const [collection, resource] = resourceUrl.split('#/resource/')[1]!.split('/');
    const views: Record<string, string> = {
      collections: 'collections',
      collection: `collection/${collection}`,
      resource: `resource/${collection}/${resource}`,
      delivery: 'delivery',
      keys: 'keys',
      events: 'events',
      history: `history/${collection}/${resource}`,
      chain: 'chain',
    };
    for (const [width, height] of [
      [1280, 800],
      [390, 844],
    ] as const) {
      await page.setViewportSize({ width, height });
      for (const [name, route] of Object.entries(views)) {
        await page.goto(`${svc.base}/console/#/${route}`);
        await page.getByRole('heading', { level: 1 }).first().waitFor();
        await page.waitForLoadState('networkidle');
        await shot(page, `view-${name}-${width}`);
        expect(await page.evaluate<number>('document.documentElement.scrollWidth'), `${name} at ${width}`).to.be.at.most(width);
        expect(await unlabelled(), name).to.deep.equal([]);
      }
    }
    const origins = new Set(requested.map((url) => new URL(url).origin));
    expect([...origins].sort()).to.deep.equal([new URL(svc.base).origin, new URL(svc.delivery).origin].sort());
  });

  it('returns to the sign-in form with the server reason when the credential stops working', async () => {
    await page.goto(`${svc.base}/console/#/keys`);
    await page.getByRole('button', { name: 'Delete key' }).click();
    await page.locator('input[name="token"]').waitFor();
    expect(await alert().textContent()).to.match(/credential is unknown, revoked or does not match/);
    expect(await page.evaluate('Object.keys(sessionStorage)')).to.deep.equal([]);
  });
});
