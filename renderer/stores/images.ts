/**
 * Images the user adds online: a building's images and a portfolio's logo. The API takes them only online and the
 * outbox does not queue them (a binary body is no cached edit), so each upload either reaches the server now or comes
 * back as an `ApiFailure`. The file is checked here before anything is sent; after a success a sync follows, which
 * brings the building's `images` or the portfolio's `logo` into the cache.
 */
import { defineStore } from 'pinia';
import { assertNever } from '../../shared/api/enums';
import type { ImageUpload } from '../../shared/ipc';
import { useBridge } from '../bridge';
import { base64Of, checkImageFile, MAX_IMAGE_BYTES, type ImageFileProblem } from './image-file';
import { apiOutcomeOf } from '../api/call-api';
import { hostFailed, mapOutcome, type ApiOutcome } from '../api/outcome';
import { useSyncStore } from './sync';
import { whenOnline } from './when-online';

/** What an image is added to. */
export type ImageTarget = ImageUpload['target'];

/** The sentence of a refused file, for callers that show the refusal as it is; the screens word the problem themselves. */
export function imageProblemMessage(problem: ImageFileProblem): string {
  switch (problem.kind) {
    case 'not-an-image':
      return 'Only PNG and JPEG images can be added.';
    case 'empty':
      return 'The image is empty.';
    case 'too-big':
      return `The image is larger than ${MAX_IMAGE_BYTES / 1024 ** 2} MiB.`;
    default:
      return assertNever(problem, 'image problem');
  }
}

/** Building images and portfolio logos, sent through the Bridge. */
export const useImagesStore = defineStore('images', () => {
  const sync = useSyncStore();
  const bridge = useBridge();

  function upload(target: ImageTarget, id: string, file: File): Promise<ApiOutcome<string>> {
    return whenOnline(sync, id, async (connectionId) => {
      const check = await checkImageFile(file);
      // The host refuses such a file too; it is refused here, before its bytes cross the Bridge.
      if (!check.ok) return hostFailed({ code: 'invalid-request', message: imageProblemMessage(check.problem) });
      const data = base64Of(new Uint8Array(await file.arrayBuffer()));
      const answer = apiOutcomeOf(await bridge.api.uploadImage({ connectionId, target, id, ...check.image, data }));
      // The server answers the stored name; should it answer none, it stored the name it was given.
      const outcome = mapOutcome(answer, (stored) => (typeof stored === 'string' && stored !== '' ? stored : check.image.fileName));
      if (outcome.ok) void sync.syncNow();
      return outcome;
    });
  }

  /** Adds an image to a building (one of the same name is replaced); answers the name the server stored it under. */
  function addBuildingImage(buildingId: string, file: File): Promise<ApiOutcome<string>> {
    return upload('building', buildingId, file);
  }

  /** Sets a portfolio's logo; answers the name the server stored it under. */
  function setPortfolioLogo(portfolioId: string, file: File): Promise<ApiOutcome<string>> {
    return upload('portfolio', portfolioId, file);
  }

  return { addBuildingImage, setPortfolioLogo };
});
