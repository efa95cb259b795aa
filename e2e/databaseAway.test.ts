// The account forms while the database is away: the server answers 3500 with HTTP 503, and the
// forms say the service is busy, not that there were too many attempts (that 3500 comes with 429,
// e2e/account.test.ts). Quire runs on a PostgreSQL cluster of the test's own, stopped and started
// here as an operator would.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, errorMessages } from '@quire/contracts';
import { createAccount } from '../apps/server/src/services/accounts.js';
import { havePostgres, privatePostgres, type PrivatePostgres } from '../apps/server/test/privatePostgres.js';
import { E2E_PASSWORD, startE2e, type E2e } from './browser.js';

const EMAIL = 'dana.okafor@example.org';
const BUSY = errorMessages[ErrorCode.Busy];

let database: PrivatePostgres;
let e2e: E2e;
beforeAll(async () => {
  database = await privatePostgres();
  e2e = await startE2e({ databaseUrl: database.url });
  await createAccount(e2e.quire.ctx, EMAIL, E2E_PASSWORD, 'free');
}, 180_000);
afterAll(async () => {
  await e2e.stop();
  await database.remove();
});

/** The form's one message, once it shows, and that nothing on the page speaks of attempts. */
async function formErrorShown(page: Page): Promise<string | null> {
  const error = page.getByTestId('form-error');
  await error.waitFor();
  expect(await page.getByText(/too many attempts/i).count()).toBe(0);
  return error.textContent();
}

describe.skipIf(!havePostgres())('account forms while the database is away', () => {
  it('say the service is busy, and sign in once the database is back', async () => {
    const page = await e2e.open('/');
    await page.getByTestId('login-button').click();
    const dialog = page.getByTestId('signin-dialog');
    await dialog.locator('input[name="email"]').fill(EMAIL);
    await dialog.locator('input[name="current-password"]').fill(E2E_PASSWORD);

    await database.stop();
    const answer = page.waitForResponse((r) => r.url().endsWith('/api/account/v1/login'));
    await dialog.getByTestId('signin-submit').click();
    // How the server answers it: the catalogue's 3500 with 503, as ADR 0513 has it.
    const login = await answer;
    expect([login.status(), ((await login.json()) as { code: number }).code]).toEqual([503, ErrorCode.Busy]);
    expect(await formErrorShown(page)).toBe(BUSY);

    await dialog.getByTestId('auth-forgot').click();
    await dialog.getByTestId('forgot-submit').click();
    expect(await formErrorShown(page)).toBe(BUSY);

    await database.start();
    await dialog.getByRole('button', { name: 'Back to sign in' }).click();
    await dialog.locator('input[name="current-password"]').fill(E2E_PASSWORD);
    await dialog.getByTestId('signin-submit').click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByTestId('avatar-button').first().waitFor();
    await page.context().close();
  });
});
