/**
 * The update feed electron-builder writes into the packaged app's resources (`app-update.yml`), and whether the app
 * may use it. Only https: the feed's `latest*.yml` carries the sha512 every downloaded update is checked against (on
 * Linux the only check there is), so a feed anyone on the network can answer would let them choose the update.
 */

/** What `app-update.yml` allows: a feed to check, none (an app built without updates), or one refused as insecure. */
export type UpdateFeed = { kind: 'https'; url: string } | { kind: 'none' } | { kind: 'insecure'; url: string };

/** The value of a top-level `key: value` line of the YAML electron-builder writes, without quotes. */
function topLevelValue(yaml: string, key: string): string | undefined {
  const line = new RegExp(`^${key}:[ \\t]*(.*)$`, 'm').exec(yaml);
  const value = line?.[1]?.trim().replace(/^(['"])(.*)\1$/, '$2');
  return value === undefined || value === '' ? undefined : value;
}

/**
 * Reads `app-update.yml` (undefined when the app has none). A generic feed must have an https address; GitHub's
 * provider reaches github.com over https by itself.
 */
export function updateFeedOf(appUpdateYml: string | undefined): UpdateFeed {
  if (appUpdateYml === undefined) return { kind: 'none' };
  const provider = topLevelValue(appUpdateYml, 'provider');
  if (provider === 'github') {
    const owner = topLevelValue(appUpdateYml, 'owner');
    const repo = topLevelValue(appUpdateYml, 'repo');
    return owner === undefined || repo === undefined ? { kind: 'none' } : { kind: 'https', url: `https://github.com/${owner}/${repo}` };
  }
  const url = topLevelValue(appUpdateYml, 'url');
  if (url === undefined) return { kind: 'none' };
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { kind: 'insecure', url };
  }
  return parsed.protocol === 'https:' && parsed.hostname !== '' ? { kind: 'https', url: parsed.href } : { kind: 'insecure', url };
}
