import type { Core } from '@strapi/strapi';
import contentTypes from '../../content-types';
import type { ContentApiAuth } from '../../access';
import { entryNarration } from './entry-narration';

/** The plugin's own tables stay out of the schema; every content type gains `narration`, under the REST routes' rule. */

// Not 'SpeechNarration': that is the name GraphQL would give the plugin's own queue table.
const NARRATION_TYPE = 'SpeechPublicNarration';

/** The few nexus builders used here (nexus comes with the GraphQL plugin; it is not ours to depend on). */
type ScalarField = (name: string, options?: { description?: string }) => void;
interface ObjectDefinition {
  string: ScalarField;
  float: ScalarField;
  int: ScalarField;
  field(name: string, options: { type: string; description?: string }): void;
  nonNull: { string: ScalarField };
}
interface ExtensionDefinition {
  field(
    name: string,
    options: { type: string; description: string; resolve: (parent: EntryParent, args: unknown, context: GraphqlContext) => unknown }
  ): void;
}
interface Nexus {
  objectType(config: { name: string; description: string; definition(t: ObjectDefinition): void }): unknown;
  extendType(config: { type: string; definition(t: ExtensionDefinition): void }): unknown;
}
type EntryParent = { documentId?: string; locale?: string | null; publishedAt?: string | null };
type GraphqlContext = { state?: { auth?: ContentApiAuth } };

interface GraphqlPlugin {
  service(name: 'extension'): {
    shadowCRUD(uid: string): { disable(): void };
    use(extension: (args: { nexus: Nexus }) => Record<string, unknown>): void;
  };
  service(name: 'utils'): { naming: { getTypeName(contentType: unknown): string } };
}

export function registerGraphql(strapi: Core.Strapi): void {
  const graphql = strapi.plugin('graphql') as unknown as GraphqlPlugin | undefined;
  if (!graphql) return;
  const extension = graphql.service('extension');

  for (const name of Object.keys(contentTypes)) extension.shadowCRUD(`plugin::speech.${name}`).disable();

  extension.use(({ nexus }) => {
    const siteTypes = Object.values(strapi.contentTypes as unknown as Record<string, { uid: string }>).filter((type) =>
      type.uid.startsWith('api::')
    );
    const { naming } = graphql.service('utils');
    return {
      types: [
        nexus.objectType({
          name: NARRATION_TYPE,
          description: 'The narration of an entry: audio and subtitles of its published version.',
          definition(t) {
            t.nonNull.string('status', { description: 'ready, processing, failed or cancelled' });
            t.string('audioUrl');
            t.string('srtUrl');
            t.string('vttUrl');
            t.string('chaptersUrl', { description: 'WebVTT chapters from the headings; null when there are none' });
            t.float('durationSeconds');
            t.string('voice');
            t.string('locale');
            t.string('updatedAt');
            t.string('title', { description: 'the title that was narrated' });
            t.int('audioBytes', { description: "the MP3's exact length in bytes; null until measured" });
            // The GraphQL plugin's own JSON scalar (it serves json attributes with it).
            t.string('pageUrl', { description: "the article's page on the site, from its type's url template" });
            t.string('aiLabel', {
              description: "the player's label that the voice is synthetic, in this locale; null when the site turned it off",
            });
            t.field('revisions', {
              type: 'JSON',
              description: 'the stored versions, newest first: [{ at, cause, changed: [{ start, end }] }]',
            });
            t.field('jsonLd', { type: 'JSON', description: 'a schema.org AudioObject to embed in the page; null while there is no audio' });
          },
        }),
        ...siteTypes.map((type) =>
          nexus.extendType({
            type: naming.getTypeName(type),
            definition(t) {
              t.field('narration', {
                type: NARRATION_TYPE,
                description: 'Its narration, where the caller may read this type and the entry is published.',
                resolve: (parent, _args, context) => entryNarration(type.uid, parent, context.state?.auth ?? null),
              });
            },
          })
        ),
      ],
    };
  });
}
