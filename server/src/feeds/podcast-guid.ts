import { v5 as uuidv5 } from 'uuid';

/** The Podcasting 2.0 namespace's own namespace UUID for `podcast:guid`. */
const PODCAST_GUID_NAMESPACE = 'ead4c236-bf58-58c6-a2c6-a6b28d128cb6';

/** `podcast:guid`, by the namespace's rule: UUIDv5 of the feed URL without its scheme and trailing slashes. */
export function podcastGuid(feedUrl: string): string {
  return uuidv5(feedUrl.replace(/^[a-z][a-z0-9+.-]*:\/\//i, '').replace(/\/+$/, ''), PODCAST_GUID_NAMESPACE);
}
