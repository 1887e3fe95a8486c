/**
 * web-ifc, loaded with `require`: it ships as one 3 MB CommonJS bundle, and an ESM `import` of it makes Node scan the
 * whole bundle for named exports (and lets a TypeScript loader look at it), which costs about half a second more per
 * worker start. Everything else in ifc/ takes web-ifc's constants and classes from here.
 */
import { createRequire } from 'node:module';
import type * as WebIfcModule from 'web-ifc';

export type { IfcAPI } from 'web-ifc';

/** The web-ifc module. */
export const WebIfc = createRequire(import.meta.url)('web-ifc') as typeof WebIfcModule;
