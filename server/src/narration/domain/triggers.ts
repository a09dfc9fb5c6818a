/**
 * When a content type is narrated follows from the type itself: a type with draft & publish is
 * narrated when an entry is published (drafts are never read aloud), a type without it when an
 * entry is saved (it is never "published" in the Content Manager's sense). The only choice left
 * to an editor is on or off. Pure.
 */
import type { NarrationTrigger } from '../../../../shared/contracts/settings';

/** When a type is narrated: on publish, on save (types without draft & publish), or never ('off'). */

export function typeTrigger(hasDraftAndPublish: boolean): Exclude<NarrationTrigger, 'off'> {
  return hasDraftAndPublish ? 'publish' : 'save';
}

/** The trigger that applies: off, or the type's own (a configured one that cannot fire is read as the type's). */
export function effectiveTrigger(configured: NarrationTrigger | undefined, hasDraftAndPublish: boolean): NarrationTrigger {
  return configured === 'off' ? 'off' : typeTrigger(hasDraftAndPublish);
}

/** Why a configured trigger can never fire for this type, or null. */
export function triggerProblem(uid: string, configured: NarrationTrigger | undefined, hasDraftAndPublish: boolean): string | null {
  if (configured === undefined || configured === 'off' || configured === typeTrigger(hasDraftAndPublish)) return null;
  return hasDraftAndPublish
    ? `${uid} has draft & publish: it is narrated when an entry is published, so trigger "save" would never narrate a saved draft; use "publish" (or leave trigger out)`
    : `${uid} has no draft & publish: its entries are never published, so trigger "publish" would never fire; use "save" (or leave trigger out)`;
}
