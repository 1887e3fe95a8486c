/**
 * The ledger of saved passport files (`downloaded` in `passports.json`): a passport file in it was saved into its
 * target's folder once and is never downloaded again, also after a restart and after its entry left the history.
 */
import type { DownloadedFile, PassportDocument } from './passport-model';

function ledgerKey(targetId: string, remoteFileId: string): string {
  return `${targetId}/${remoteFileId}`;
}

/** The ledger of a document, with its keys at hand for quick look-ups. */
export class PassportLedger {
  readonly #document: PassportDocument;
  readonly #keys: Set<string>;

  constructor(document: PassportDocument) {
    this.#document = document;
    this.#keys = new Set(document.downloaded.map((item) => ledgerKey(item.targetId, item.remoteFileId)));
  }

  has(targetId: string, remoteFileId: string): boolean {
    return this.#keys.has(ledgerKey(targetId, remoteFileId));
  }

  add(item: DownloadedFile): void {
    this.#document.downloaded.push(item);
    this.#keys.add(ledgerKey(item.targetId, item.remoteFileId));
  }

  /** Forgets the target's files that the server no longer lists: they cannot come back. */
  forgetUnlisted(targetId: string, listed: ReadonlySet<string>): void {
    const gone = this.#document.downloaded.filter((item) => item.targetId === targetId && !listed.has(item.remoteFileId));
    if (gone.length === 0) return;
    this.#document.downloaded = this.#document.downloaded.filter((item) => !gone.includes(item));
    for (const item of gone) this.#keys.delete(ledgerKey(item.targetId, item.remoteFileId));
  }

  /** Forgets every file of a removed target. */
  forgetTarget(targetId: string): void {
    this.#document.downloaded = this.#document.downloaded.filter((item) => item.targetId !== targetId);
    for (const key of [...this.#keys]) if (key.startsWith(`${targetId}/`)) this.#keys.delete(key);
  }
}
