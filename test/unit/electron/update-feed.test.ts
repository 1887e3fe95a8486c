import { describe, expect, it } from 'vitest';
import { updateFeedOf } from '../../../electron/update-feed';

/** `app-update.yml` as electron-builder 26 writes it for the generic provider. */
function genericFeed(url: string): string {
  return `provider: generic\nurl: ${url}\nupdaterCacheDirName: circularity-desk-updater\n`;
}

describe('updateFeedOf', () => {
  it('takes an https feed', () => {
    expect(updateFeedOf(genericFeed('https://downloads.example.org/circularity-desk/'))).toEqual({
      kind: 'https',
      url: 'https://downloads.example.org/circularity-desk/',
    });
    expect(updateFeedOf(genericFeed("'https://downloads.example.org/desk'"))).toEqual({ kind: 'https', url: 'https://downloads.example.org/desk' });
  });

  it('refuses a feed over plain http or anything else that is not https', () => {
    for (const url of ['http://downloads.example.org/circularity-desk/', 'HTTP://downloads.example.org/', 'ftp://example.org/', 'file:///tmp/feed', 'downloads.example.org']) {
      expect(updateFeedOf(genericFeed(url))).toEqual({ kind: 'insecure', url });
    }
  });

  it('has no feed for an app built without one', () => {
    expect(updateFeedOf(undefined)).toEqual({ kind: 'none' });
    expect(updateFeedOf('provider: generic\nurl: \nupdaterCacheDirName: circularity-desk-updater\n')).toEqual({ kind: 'none' });
    expect(updateFeedOf("provider: generic\nurl: ''\n")).toEqual({ kind: 'none' });
  });

  it('takes GitHub Releases, which are reached over https', () => {
    expect(updateFeedOf('owner: circularity\nrepo: desk\nprovider: github\nreleaseType: draft\n')).toEqual({
      kind: 'https',
      url: 'https://github.com/circularity/desk',
    });
  });
});
