import { adminUrl } from '../../../shared/contracts/routes';
import type { NarrationsApi } from './narrations';
import { RECENT_TRANSCRIPTIONS, replaceRow, transcriptionTag } from './tags';
import type {
  GetTranscriptionResponse,
  ListTranscriptionsRequest,
  ListTranscriptionsResponse,
  SaveTranscriptionRequest,
  SaveTranscriptionResponse,
  TranscriptDownloadFormat,
  TranscriptionDetail,
} from './types';

/** Speech to text: the recent list, one transcription, saving its result (the upload and downloads are in transcriptionFiles.ts). */
export function withTranscriptionsEndpoints(api: NarrationsApi) {
  const speech = api.injectEndpoints({
    endpoints: (builder) => ({
      getSpeechTranscriptions: builder.query<ListTranscriptionsResponse, number>({
        query: (limit) => ({
          url: adminUrl('admin-transcriptions.list'),
          // Query strings carry text: the number as the server reads it back (`z.coerce`).
          config: { params: { limit: String(limit), mine: 'true' } satisfies Record<keyof ListTranscriptionsRequest['query'], string> },
        }),
        providesTags: [{ type: 'SpeechTranscription', id: 'LIST' }],
      }),

      getSpeechTranscription: builder.query<TranscriptionDetail, number>({
        query: (id) => adminUrl('admin-transcriptions.findOne', { id }),
        transformResponse: (response: GetTranscriptionResponse) => response.data,
        providesTags: (_result, _error, id) => [transcriptionTag(id)],
        // The open job's status also updates its row in the recent list (no extra request).
        async onQueryStarted(_id, { dispatch, queryFulfilled }) {
          const { data: job } = await queryFulfilled.catch(() => ({ data: null }));
          if (!job) return;
          const { result: _result, ...view } = job;
          dispatch(speech.util.updateQueryData('getSpeechTranscriptions', RECENT_TRANSCRIPTIONS, (draft) => replaceRow(draft, view)));
        },
      }),

      saveSpeechTranscription: builder.mutation<
        SaveTranscriptionResponse,
        SaveTranscriptionRequest['params'] & { format?: TranscriptDownloadFormat }
      >({
        query: ({ id, format }) => ({
          url: adminUrl('admin-transcriptions.save', { id }),
          method: 'POST',
          data: (format ? { format } : {}) satisfies SaveTranscriptionRequest['body'],
        }),
        async onQueryStarted({ id }, { dispatch, queryFulfilled }) {
          const { data: answer } = await queryFulfilled.catch(() => ({ data: null }));
          if (!answer) return;
          dispatch(
            speech.util.updateQueryData('getSpeechTranscription', id, (draft) =>
              draft ? { ...draft, ...answer.data, result: draft.result } : draft
            )
          );
          dispatch(
            speech.util.updateQueryData('getSpeechTranscriptions', RECENT_TRANSCRIPTIONS, (draft) => replaceRow(draft, answer.data))
          );
        },
      }),
    }),
  });
  return speech;
}

export type TranscriptionsApi = ReturnType<typeof withTranscriptionsEndpoints>;
