'use strict';
/**
 * electron-builder's afterSign hook: sends the signed macOS app to Apple's notary service and staples the ticket.
 * Credentials come from the environment (APPLE_ID, APPLE_APP_SPECIFIC_PASSWORD, APPLE_TEAM_ID); with none of them set
 * the build goes on un-notarized (a local or unsigned build), with only some of them it stops, because a release
 * build would otherwise come out un-notarized without anyone noticing.
 */

const CREDENTIALS = ['APPLE_ID', 'APPLE_APP_SPECIFIC_PASSWORD', 'APPLE_TEAM_ID'];

/** The notarize options for this build, or undefined when it is not to be notarized; throws on half-set credentials. */
function notarizeOptions(context, env) {
  if (context.electronPlatformName !== 'darwin') return undefined;
  const missing = CREDENTIALS.filter((name) => !env[name]);
  if (missing.length === CREDENTIALS.length) return undefined;
  if (missing.length > 0) {
    throw new Error(`Notarizing needs ${CREDENTIALS.join(', ')}; ${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} not set.`);
  }
  return {
    appPath: `${context.appOutDir}/${context.packager.appInfo.productFilename}.app`,
    appleId: env.APPLE_ID,
    appleIdPassword: env.APPLE_APP_SPECIFIC_PASSWORD,
    teamId: env.APPLE_TEAM_ID,
  };
}

/** Loads @electron/notarize only when it is needed: it is an ES module, and only macOS release builds use it. */
async function loadNotarize() {
  return (await import('@electron/notarize')).notarize;
}

/** The hook electron-builder calls after signing; `env` and `load` are replaceable for tests. */
async function afterSign(context, env = process.env, load = loadNotarize) {
  const options = notarizeOptions(context, env);
  if (options === undefined) {
    if (context.electronPlatformName === 'darwin') console.warn(`  • skipped notarization: ${CREDENTIALS.join(', ')} are not set`);
    return;
  }
  process.stdout.write(`  • notarizing ${options.appPath}\n`);
  const notarize = await load();
  await notarize(options);
}

module.exports = afterSign;
module.exports.default = afterSign;
module.exports.notarizeOptions = notarizeOptions;
