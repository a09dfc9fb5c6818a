/** A draft & publish type is narrated on publish (drafts are never read aloud), others on save; editors choose only on or off. */
import type { NarrationTrigger } from '../../../../shared/contracts/settings';

export function typeTrigger(hasDraftAndPublish: boolean): Exclude<NarrationTrigger, 'off'> {
  return hasDraftAndPublish ? 'publish' : 'save';
}

export function effectiveTrigger(configured: NarrationTrigger | undefined, hasDraftAndPublish: boolean): NarrationTrigger {
  return configured === 'off' ? 'off' : typeTrigger(hasDraftAndPublish);
}

export function triggerProblem(uid: string, configured: NarrationTrigger | undefined, hasDraftAndPublish: boolean): string | null {
  if (configured === undefined || configured === 'off' || configured === typeTrigger(hasDraftAndPublish)) return null;
  return hasDraftAndPublish
    ? `${uid} has draft & publish: it is narrated when an entry is published, so trigger "save" would never narrate a saved draft; use "publish" (or leave trigger out)`
    : `${uid} has no draft & publish: its entries are never published, so trigger "publish" would never fire; use "save" (or leave trigger out)`;
}
