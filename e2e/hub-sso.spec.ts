import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { startOidcProvider, TEST_OIDC_CLIENT, type TestProvider } from '../server/tests/oidc-provider';
import { browserContents, e2eHubUrl, hubAs, hubContext, signedInPage, signInThroughForm, startE2eHub, type E2eHub } from './support/hub';

/*
 * Single sign-on on a team hub, as a person goes through it: the hub's sign-in page offers the
 * team's provider (a real OpenID Connect provider, oidc-provider on loopback, with its development
 * login: any login, any password), the provider's own login and consent pages, and back to the
 * console signed in as the member with that email. The admin reads who signed in from the audit log.
 * The provider is on another site than the hub (localhost against 127.0.0.1), as a real one is: its
 * redirect back is cross-site, with which the browser sends no SameSite=Strict cookie.
 */
test.describe.configure({ mode: 'serial' });

let hub: E2eHub;
let provider: TestProvider;
const contexts: BrowserContext[] = [];

test.beforeAll(async () => {
  provider = await startOidcProvider({ host: 'localhost' });
  hub = await startE2eHub('hub-sso', {
    args: ['--oidc-issuer', provider.issuer, '--oidc-client-id', TEST_OIDC_CLIENT.clientId, '--oidc-label', 'Acme SSO'],
    env: { HUB_OIDC_CLIENT_SECRET: TEST_OIDC_CLIENT.clientSecret },
  });
  provider.serve([`${e2eHubUrl()}/hub/v1/oidc/callback`]);
});
test.afterEach(async () => {
  for (const context of contexts.splice(0)) await context.close();
});
test.afterAll(async () => {
  await hub?.stop();
  await provider?.close();
});

/** The provider's development login and consent, as a person fills them in. */
async function atProvider(page: Page, login: string) {
  await expect(page).toHaveURL(new RegExp(`^${provider.issuer}/interaction/`));
  await page.getByPlaceholder('Enter any login').fill(login);
  await page.getByPlaceholder('and password').fill('whatever-the-provider-checks');
  await page.getByRole('button', { name: 'Sign-in' }).click();
  await page.getByRole('button', { name: 'Continue' }).click();
}

test('a member signs in through the team’s provider and lands where they were going; the audit names them', async ({ browser }) => {
  const context = await hubContext(browser, hub, { width: 1280, height: 720 });
  contexts.push(context);
  const page = await context.newPage();
  // Where they were going: the team's audit page sends a signed-out browser to sign in first.
  await page.goto('/team/audit');
  await expect(page).toHaveURL(/\/sign-in\?redirect=/);
  await page.getByRole('button', { name: 'Sign in with Acme SSO' }).click();
  await atProvider(page, hub.accounts.viewer.email);

  await expect(page).toHaveURL(`${hub.url}/team/audit`);
  await expect(page.getByText(`Signed in as ${hub.accounts.viewer.email}`)).toBeVisible();
  // Nothing of the flow is left in the address bar or the browser's storage: the session is an HttpOnly cookie.
  expect(page.url()).not.toMatch(/code=|state=/);
  const session = (await context.cookies()).find((c) => c.name === 'ddh_session')!;
  expect(session).toMatchObject({ httpOnly: true, sameSite: 'Strict' });
  expect(await browserContents(page)).not.toContain(session.value);
  expect((await context.cookies()).some((c) => c.name === 'ddh_oidc_flow')).toBe(false);

  // The viewer reads the audit on the page they asked for: their own sign-in, through the provider.
  const admin = await signedInPage(browser, hub, hub.accounts.admin, contexts);
  const members = await hubAs(admin, hub).members();
  const viewer = members.find((m) => m.email === hub.accounts.viewer.email)!;
  const signIns = await hubAs(admin, hub).audit('session.sign_in');
  expect(signIns.filter((row) => row.actor_id === viewer.id && row.via === 'oidc' && row.outcome === 'ok')).toHaveLength(1);
  await page.getByRole('combobox', { name: 'Action' }).selectOption({ label: 'Sign-in attempt' });
  await expect(page.getByRole('row').filter({ hasText: hub.accounts.viewer.email }).filter({ hasText: 'Sign-in attempt' }).first()).toBeVisible();
});

test('an address no member has is refused with a reason, and no session; the password form still works', async ({ browser }) => {
  const context = await hubContext(browser, hub, { width: 390, height: 844 });
  contexts.push(context);
  const page = await context.newPage();
  await page.goto('/sign-in');
  await page.getByRole('button', { name: 'Sign in with Acme SSO' }).click();
  await atProvider(page, 'stranger@elsewhere.example');

  await expect(page).toHaveURL(`${hub.url}/sign-in?sso=no_member`);
  await expect(page.getByRole('alert')).toHaveText(/Not signed in: No member of this team hub has the email address your provider gave/);
  expect((await context.cookies()).some((c) => c.name === 'ddh_session')).toBe(false);

  // The same page signs in with a password.
  await page.getByRole('textbox', { name: 'Email' }).fill(hub.accounts.reviewer1.email);
  await page.getByLabel('Password').fill(hub.accounts.reviewer1.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByText(`Signed in as ${hub.accounts.reviewer1.email}`)).toBeVisible();
});

test('declining at the provider says so, and signs nobody in', async ({ browser }) => {
  const context = await hubContext(browser, hub);
  contexts.push(context);
  const page = await context.newPage();
  await page.goto('/sign-in');
  await page.getByRole('button', { name: 'Sign in with Acme SSO' }).click();
  await expect(page).toHaveURL(new RegExp(`^${provider.issuer}/interaction/`));
  await page.getByRole('link', { name: /Cancel|abort/i }).click();
  await expect(page).toHaveURL(`${hub.url}/sign-in?sso=denied`);
  await expect(page.getByRole('alert')).toHaveText(/The sign-in was cancelled at the provider/);
  expect((await context.cookies()).some((c) => c.name === 'ddh_session')).toBe(false);
});

test('signing in through the provider where someone was signed in ends their session, though the way back is cross-site', async ({ browser }) => {
  const context = await hubContext(browser, hub);
  contexts.push(context);
  const page = await context.newPage();
  await signInThroughForm(page, hub.accounts.viewer);
  const before = (await context.cookies()).find((c) => c.name === 'ddh_session')!.value;

  await page.goto('/sign-in');
  await page.getByRole('button', { name: 'Sign in with Acme SSO' }).click();
  await atProvider(page, hub.accounts.reviewer2.email);
  await expect(page.getByText(`Signed in as ${hub.accounts.reviewer2.email}`)).toBeVisible();

  // The viewer's session ended on the hub, not only in this browser's jar.
  const old = await fetch(`${hub.url}/hub/v1/me`, { headers: { Cookie: `ddh_session=${before}` } });
  expect(old.status).toBe(401);
});
