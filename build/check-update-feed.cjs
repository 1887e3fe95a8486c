'use strict';
/**
 * electron-builder's beforePack hook: stops a build whose update feed (CIRCULARITY_DESK_UPDATE_URL) is not https. The
 * app would refuse such a feed and never update, and nobody would notice until the next release did not arrive.
 * An empty value stays allowed: it builds an app without updates.
 */

/** Why the feed address cannot be used, or undefined when it can (https, or empty). */
function feedProblem(url) {
  if (url === undefined || url === '') return undefined;
  let parsed;
  try {
    parsed = new URL(url);
  } catch {
    return `CIRCULARITY_DESK_UPDATE_URL is not an address: '${url}'.`;
  }
  if (parsed.protocol !== 'https:') return `CIRCULARITY_DESK_UPDATE_URL must be an https address, not '${url}': the app refuses any other feed.`;
  return undefined;
}

/** The hook electron-builder calls before packing each platform; `env` is replaceable for tests. */
async function beforePack(_context, env = process.env) {
  const problem = feedProblem(env.CIRCULARITY_DESK_UPDATE_URL);
  if (problem !== undefined) throw new Error(problem);
}

module.exports = beforePack;
module.exports.default = beforePack;
