/**
 * One page drives the browser host at a time: a second tab is refused and says why, and takes over by itself once the
 * first one is closed.
 */
import { test, expect } from '@playwright/test';
import { startBrowserHost } from './processes';

test('a second tab is refused while the first is open, and connects once it is closed', async ({ context }) => {
  const host = await startBrowserHost();
  try {
    const first = await context.newPage();
    await first.goto(host.url);
    await expect(first.locator('#app')).toHaveAttribute('data-app-ready', 'true');
    await expect(first.getByTestId('active-connection')).toBeVisible();

    const second = await context.newPage();
    await second.goto(host.url);
    await expect(second.getByTestId('link-refused')).toContainText('The app is already open in another tab.');
    await expect(first.getByTestId('link-refused')).toHaveCount(0);

    await first.close();
    await expect(second.getByTestId('link-refused')).toHaveCount(0, { timeout: 30_000 });
    await expect(second.getByTestId('active-connection')).toBeVisible();
  } finally {
    await host.stop();
  }
});
