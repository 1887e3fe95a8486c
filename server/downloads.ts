import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DatabaseSchema } from './store/tables';

/** What a signed download address grants: one blob, under a file name and content type, until a time. */
export interface DownloadGrant {
  blobKey: string;
  fileName: string;
  contentType: string;
  expiresAt: number;
}

/** Signs and verifies download tokens with a secret every process of the server shares. */
export interface DownloadSigner {
  sign(grant: DownloadGrant): string;
  /** The grant of a token, or undefined when it is forged, malformed or expired. */
  verify(token: string, now: Date): DownloadGrant | undefined;
}

const SIGNING_SECRET_SETTING = 'download-signing-secret';

function freshSecret(): string {
  return randomBytes(32).toString('base64url');
}

/** Loads the signing secret from the database, creating it on first start. */
export async function loadDownloadSigner(db: Kysely<DatabaseSchema>): Promise<DownloadSigner> {
  await db
    .insertInto('server_settings')
    .values({ name: SIGNING_SECRET_SETTING, value: freshSecret() })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const row = await db.selectFrom('server_settings').select('value').where('name', '=', SIGNING_SECRET_SETTING).executeTakeFirstOrThrow();
  return createDownloadSigner(Buffer.from(row.value, 'base64url'));
}

/**
 * Gives a database copied from another server a signing secret of its own, so that neither server can sign
 * download addresses the other honours (and links handed out by the source stop working on the copy).
 */
export async function rotateDownloadSigningSecret(db: Kysely<DatabaseSchema>): Promise<void> {
  await db.updateTable('server_settings').set({ value: freshSecret() }).where('name', '=', SIGNING_SECRET_SETTING).execute();
}

/** A signer over a given secret. */
export function createDownloadSigner(secret: Buffer): DownloadSigner {
  const mac = (payload: string): Buffer => createHmac('sha256', secret).update(payload).digest();
  return {
    sign(grant) {
      const payload = Buffer.from(JSON.stringify([grant.blobKey, grant.fileName, grant.contentType, grant.expiresAt])).toString(
        'base64url',
      );
      return `${payload}.${mac(payload).toString('base64url')}`;
    },
    verify(token, now) {
      const [payload, signature, extra] = token.split('.');
      if (payload === undefined || signature === undefined || extra !== undefined) return undefined;
      const given = Buffer.from(signature, 'base64url');
      const expected = mac(payload);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
      const fields: unknown = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
      if (!Array.isArray(fields) || fields.length !== 4) return undefined;
      const [blobKey, fileName, contentType, expiresAt] = fields as unknown[];
      if (typeof blobKey !== 'string' || typeof fileName !== 'string' || typeof contentType !== 'string') return undefined;
      if (typeof expiresAt !== 'number' || expiresAt <= now.getTime()) return undefined;
      return { blobKey, fileName, contentType, expiresAt };
    },
  };
}
