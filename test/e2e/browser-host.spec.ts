/**
 * One page drives the browser host at a time: a second tab is refused and says why, and takes over by itself once the
 * first one is closed.
 */
import { expect, test } from './fixtures';
import { activeConnection, linkRefused } from './pages/shell';
import { startBrowserHost } from './processes';

test('a second tab is refused while the first is open, and connects once it is closed', async ({ context, openApp }) => {
  const host = await startBrowserHost();
  try {
    const first = await context.newPage();
    await openApp(host, first);
    await expect(activeConnection(first)).toBeVisible();

    const second = await context.newPage();
    await second.goto(host.url);
    await expect(linkRefused(second)).toContainText('The app is already open in another tab.');
    await expect(linkRefused(first)).toHaveCount(0);

    await first.close();
    await expect(linkRefused(second)).toHaveCount(0, { timeout: 30_000 });
    await expect(activeConnection(second)).toBeVisible();
  } finally {
    await host.stop();
  }
});
