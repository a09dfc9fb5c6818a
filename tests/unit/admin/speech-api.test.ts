import { RECENT_TRANSCRIPTIONS } from '../../../admin/src/api/endpoints';
import { toProblem } from '../../../admin/src/api/errors';
import { isNarratedType, lastNarratedTypes, recordNarratedTypes } from '../../../admin/src/api/narratedTypes';
import type { GetSettingsResponse, SpeechSettings, TranscriptionDetail, TranscriptionView } from '../../../admin/src/api/types';
import { adminStore, closeAdminStores, type SentRequest } from './api-store';
import { queueState } from './fixtures';

const ARTICLE = 'api::article.article';
const NOTE = 'api::note.note';
const QUEUE = queueState({
  paused: true,
  pauseCode: 'INSUFFICIENT_CREDITS',
  pauseReason: 'credits',
  creditsRemaining: 0,
  creditsRequired: 10,
});
const SETTINGS: SpeechSettings = {
  defaultVoiceId: 'en-male-1',
  preprocessType: '0',
  contentTypes: { [ARTICLE]: { textFields: ['body'] }, [NOTE]: { textFields: ['text'], trigger: 'off' } },
};
const SETTINGS_RESPONSE = {
  settings: SETTINGS,
  contentTypes: [],
  connection: {},
  queue: QUEUE,
  averages: {},
  features: { voicePreview: true },
} as unknown as GetSettingsResponse;

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

afterEach(closeAdminStores);

it('names every endpoint after the plugin: all plugins inject into the one adminApi', () => {
  const { api } = adminStore(() => null);
  const names = Object.keys(api.endpoints);
  expect(names.length).toBeGreaterThan(15);
  expect(names.filter((name) => !/speech/i.test(name))).toEqual([]);
});

describe('narrated types', () => {
  beforeEach(() => recordNarratedTypes({ status: 'idle', contentTypes: {}, features: {} }));

  it('are recorded for the list view column hook when the query answers, and after a failed one', async () => {
    const { api, store } = adminStore(() => ({ contentTypes: SETTINGS.contentTypes, features: { transcription: true } }));
    expect(lastNarratedTypes().status).toBe('idle');
    await store.dispatch(api.endpoints.getSpeechNarratedTypes.initiate());
    const snapshot = lastNarratedTypes();
    expect(snapshot).toMatchObject({ status: 'ready', features: { transcription: true } });
    expect(isNarratedType(snapshot.contentTypes, ARTICLE)).toBe(true);
    expect(isNarratedType(snapshot.contentTypes, NOTE)).toBe(false);
    expect(isNarratedType(snapshot.contentTypes, 'api::page.page')).toBe(false);

    const failing = adminStore(() => {
      throw { error: { name: 'ApplicationError', status: 500, message: 'down', details: {} } };
    });
    await failing.store.dispatch(failing.api.endpoints.getSpeechNarratedTypes.initiate());
    expect(lastNarratedTypes()).toEqual({ status: 'error', contentTypes: {}, features: {} });
  });

  it('follow a settings save at once, without asking the server again', async () => {
    const saved: SpeechSettings = {
      ...SETTINGS,
      contentTypes: { ...SETTINGS.contentTypes, [NOTE]: { textFields: ['text'], trigger: 'save' } },
    };
    const stack = adminStore((request: SentRequest) => {
      if (request.url === '/speech/settings' && request.method === 'GET') return SETTINGS_RESPONSE;
      if (request.url === '/speech/settings' && request.method === 'PUT') return { settings: saved };
      if (request.url === '/speech/narrated-types') return { contentTypes: SETTINGS.contentTypes, features: {} };
      throw new Error(`unexpected ${request.method} ${request.url}`);
    });
    const { api, store } = stack;
    const page = store.dispatch(api.endpoints.getSpeechSettings.initiate());
    await page;
    await store.dispatch(api.endpoints.getSpeechNarratedTypes.initiate());
    expect(isNarratedType(lastNarratedTypes().contentTypes, NOTE)).toBe(false);

    await store.dispatch(api.endpoints.updateSpeechSettings.initiate({ contentTypes: saved.contentTypes }));
    await settle();
    expect(stack.sent('/speech/settings').map((request) => request.method)).toEqual(['GET', 'PUT']);
    expect(stack.sent('/speech/narrated-types')).toHaveLength(1);
    expect(isNarratedType(lastNarratedTypes().contentTypes, NOTE)).toBe(true);
    expect(lastNarratedTypes().features).toEqual({ voicePreview: true });
    // Components reading the query see the same, and the settings page its saved settings.
    expect(isNarratedType(api.endpoints.getSpeechNarratedTypes.select()(store.getState() as never).data?.contentTypes, NOTE)).toBe(true);
    const settings = api.endpoints.getSpeechSettings.select()(store.getState() as never).data;
    expect(settings?.settings).toEqual(saved);
    expect(settings?.features).toEqual({ voicePreview: true });
    page.unsubscribe();
  });
});

describe('settings page', () => {
  it('shows the resumed queue from the answer of the resume request', async () => {
    const resumed = { ...QUEUE, paused: false, pauseCode: null, pauseReason: null };
    const stack = adminStore((request) => (request.url === '/speech/queue/resume' ? { queue: resumed } : SETTINGS_RESPONSE));
    const page = stack.store.dispatch(stack.api.endpoints.getSpeechSettings.initiate());
    await page;
    await stack.store.dispatch(stack.api.endpoints.resumeSpeechQueue.initiate());
    await settle();
    expect(stack.api.endpoints.getSpeechSettings.select()(stack.store.getState() as never).data?.queue).toEqual(resumed);
    expect(stack.sent('/speech/settings')).toHaveLength(1);
    page.unsubscribe();
  });

  it("reads validation errors from the query cache's error as from the fetch client's", async () => {
    const body = {
      status: 400,
      name: 'ValidationError',
      message: 'Invalid settings',
      details: { errors: [{ path: ['defaultVoiceId'], message: 'Unknown voice' }], code: 'INVALID_VOICE_ID' },
    };
    const stack = adminStore(() => {
      throw { error: body };
    });
    const caught = await stack.store
      .dispatch(stack.api.endpoints.updateSpeechSettings.initiate({ defaultVoiceId: 'nope' }))
      .unwrap()
      .catch((error: unknown) => error);
    const problem = toProblem(caught);
    expect(problem).toMatchObject({
      status: 400,
      message: 'Invalid settings',
      code: 'INVALID_VOICE_ID',
      fieldErrors: [{ path: ['defaultVoiceId'], message: 'Unknown voice' }],
    });
    expect(toProblem({ name: 'FetchError', status: 400, response: { data: { error: body } } })).toEqual(problem);
  });
});

describe('Transcribe page', () => {
  const view = (id: number, status: TranscriptionView['status']) =>
    ({ id, status, fileName: `${id}.mp3`, savedFile: null }) as unknown as TranscriptionView;

  it("keeps the open job's row of the recent list current, and its saved file, without listing again", async () => {
    let jobStatus: TranscriptionView['status'] = 'processing';
    const stack = adminStore((request) => {
      if (request.url === '/speech/transcriptions')
        return { data: [view(2, 'completed'), view(1, 'processing')], meta: { limit: 20, pollIntervalMs: 1000 } };
      if (request.url === '/speech/transcriptions/1')
        return { data: { ...view(1, jobStatus), result: { format: 'json', segments: [], text: 'hi', srt: null } } };
      if (request.url === '/speech/transcriptions/1/save') {
        return {
          data: { ...view(1, 'completed'), savedFile: { id: 9, name: '1.json', url: '/uploads/1.json', mime: 'application/json' } },
          file: { id: 9, name: '1.json', url: '/uploads/1.json', mime: 'application/json' },
          created: true,
        };
      }
      throw new Error(`unexpected ${request.url}`);
    });
    const { api, store } = stack;
    const list = store.dispatch(api.endpoints.getSpeechTranscriptions.initiate(RECENT_TRANSCRIPTIONS));
    await list;
    expect(stack.sent('/speech/transcriptions')[0].params).toEqual({ limit: '20', mine: 'true' });
    const listed = () => api.endpoints.getSpeechTranscriptions.select(RECENT_TRANSCRIPTIONS)(store.getState() as never).data?.data;

    jobStatus = 'completed';
    const job = store.dispatch(api.endpoints.getSpeechTranscription.initiate(1));
    await job;
    await settle();
    expect(listed()?.map((row) => [row.id, row.status])).toEqual([
      [2, 'completed'],
      [1, 'completed'],
    ]);
    // The list holds views, not the transcript.
    expect(listed()?.[1]).not.toHaveProperty('result');

    await store.dispatch(api.endpoints.saveSpeechTranscription.initiate({ id: 1 }));
    await settle();
    const detail = api.endpoints.getSpeechTranscription.select(1)(store.getState() as never).data as TranscriptionDetail;
    expect(detail.savedFile?.name).toBe('1.json');
    expect(detail.result?.text).toBe('hi');
    expect(listed()?.[1].savedFile?.name).toBe('1.json');
    expect(stack.sent('/speech/transcriptions')).toHaveLength(1);
    expect(stack.sent('/speech/transcriptions/1/save')[0]).toMatchObject({ method: 'POST', data: {} });
    job.unsubscribe();
    list.unsubscribe();
  });

  it('lets the open job answer first while the list is still on its first request', async () => {
    let answerList: (value: unknown) => void = () => undefined;
    const stack = adminStore((request) => {
      if (request.url === '/speech/transcriptions') return new Promise((resolve) => (answerList = resolve));
      return { data: { ...view(1, 'completed'), result: null } };
    });
    const { api, store } = stack;
    const list = store.dispatch(api.endpoints.getSpeechTranscriptions.initiate(RECENT_TRANSCRIPTIONS));
    const job = store.dispatch(api.endpoints.getSpeechTranscription.initiate(1));
    const unhandled = jest.fn();
    process.on('unhandledRejection', unhandled);
    await job;
    await settle();
    answerList({ data: [view(1, 'completed')], meta: { limit: 20, pollIntervalMs: 1000 } });
    await list;
    await settle();
    process.off('unhandledRejection', unhandled);
    expect(unhandled).not.toHaveBeenCalled();
    expect(
      api.endpoints.getSpeechTranscriptions
        .select(RECENT_TRANSCRIPTIONS)(store.getState() as never)
        .data?.data.map((row) => row.id)
    ).toEqual([1]);
    job.unsubscribe();
    list.unsubscribe();
  });
});
