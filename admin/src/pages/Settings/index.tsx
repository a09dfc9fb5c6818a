import * as React from 'react';
import { Button, Flex, Grid } from '@strapi/design-system';
import { Check } from '@strapi/icons';
import { Layouts, Page, useNotification, useRBAC } from '@strapi/strapi/admin';
import { useIntl } from 'react-intl';
import { fieldError, problemOf, toProblem } from '../../api/errors';
import { useGetSpeechSettingsQuery, useGetSpeechVoicesQuery, useUpdateSpeechSettingsMutation } from '../../api/speechApi';
import { MAX_SEGMENT_CHARACTERS, MIN_SEGMENT_CHARACTERS, type FieldError, type GetSettingsResponse } from '../../api/types';
import { PERMISSIONS } from '../../utils/permissions';
import { useTranslator } from '../../utils/useTranslator';
import { Card } from '../../components/Card';
import { BudgetCard } from './BudgetCard';
import { ConnectionCard } from './ConnectionCard';
import { ContentTypesCard } from './ContentTypesCard';
import { CostAverages, CostPreview } from './CostPreview';
import { VALIDATION_MESSAGES, creditsFor, fromForm, isDirty, toForm, validateForm, type SettingsForm } from './form';
import { LexiconCard } from './LexiconCard';
import { LocaleVoicesCard } from './LocaleVoicesCard';
import { SpokenFrameCard } from './SpokenFrameCard';
import { VoicePicker } from './VoicePicker';
import { WebhooksCard } from './WebhooksCard';

const SETTINGS_PERMISSIONS = [...PERMISSIONS.updateSettings, ...PERMISSIONS.narrate, ...PERMISSIONS.transcribe];

const SettingsPage = () => {
  const { toggleNotification } = useNotification();
  const t = useTranslator();
  const { formatNumber } = useIntl();
  const {
    isLoading: loadingPermissions,
    allowedActions: { canUpdate, canNarrate, canTranscribe },
  } = useRBAC(SETTINGS_PERMISSIONS);

  const settingsQuery = useGetSpeechSettingsQuery(undefined, { refetchOnMountOrArgChange: true });
  const settings = {
    data: settingsQuery.data,
    loading: settingsQuery.isLoading,
    error: problemOf(settingsQuery.error),
    reload: settingsQuery.refetch,
  };
  const voicesQuery = useGetSpeechVoicesQuery(undefined, { refetchOnMountOrArgChange: true });
  const voices = { data: voicesQuery.data, loading: voicesQuery.isLoading, error: problemOf(voicesQuery.error) };
  const [updateSettings, { isLoading: saving }] = useUpdateSpeechSettingsMutation();
  // The saved settings as a form, derived from the cached answer; the editor's changes are kept
  // with the baseline they were made on, so a new answer (after a save, or a retry) replaces them.
  const baseline = React.useMemo(
    () =>
      settingsQuery.data ? toForm(settingsQuery.data.settings, settingsQuery.data.contentTypes, settingsQuery.data.fileContentTypes) : null,
    [settingsQuery.data]
  );
  const [edited, setEdited] = React.useState<{ baseline: SettingsForm; form: SettingsForm } | null>(null);
  const form = edited && edited.baseline === baseline ? edited.form : baseline;
  const [errors, setErrors] = React.useState<FieldError[]>([]);

  if (settings.loading || loadingPermissions) return <Page.Loading />;
  if (settings.error || !settings.data || !form || !baseline) {
    return (
      <Page.Main>
        <Page.Title>{t('plugin.name', 'Speech')}</Page.Title>
        <Layouts.Header title={t('plugin.name', 'Speech')} />
        <Layouts.Content>
          <Page.Error
            content={settings.error?.message}
            action={<Button onClick={() => void settings.reload()}>{t('common.retry', 'Try again')}</Button>}
          />
        </Layouts.Content>
      </Page.Main>
    );
  }

  const data: GetSettingsResponse = settings.data;
  const setForm = (next: SettingsForm) => setEdited({ baseline, form: next });
  const dirty = isDirty(form, baseline);
  // The page's own checks in the editor's language (the bounds are the contract's); the server's messages as sent.
  const bounds = { min: formatNumber(MIN_SEGMENT_CHARACTERS), max: formatNumber(MAX_SEGMENT_CHARACTERS) };
  const message = (text: string | undefined) => (text && VALIDATION_MESSAGES[text] ? t(text, VALIDATION_MESSAGES[text], bounds) : text);
  const enabledTypes = data.contentTypes.filter((type) => form.contentTypes[type.uid]?.enabled);

  const save = async () => {
    const local = validateForm(form);
    setErrors(local);
    if (local.length) {
      toggleNotification({ type: 'warning', message: t('save.invalid', 'Some settings need your attention.') });
      return;
    }
    try {
      // The mutation updates the cached settings (the form follows) and the narrated types.
      await updateSettings(fromForm(form)).unwrap();
      toggleNotification({ type: 'success', message: t('save.success', 'Settings saved.') });
    } catch (error) {
      const problem = toProblem(error);
      setErrors(problem.fieldErrors);
      toggleNotification({
        type: 'danger',
        // The server's own words name every refused key, also one the page has no field for.
        message: problem.fieldErrors.length
          ? t('save.refused', 'The server refused these settings: {message}', { message: problem.message })
          : problem.message,
      });
    }
  };

  return (
    <Page.Main>
      <Page.Title>{t('plugin.name', 'Speech')}</Page.Title>
      <Layouts.Header
        title={t('plugin.name', 'Speech')}
        subtitle={t('settings.subtitle', 'Narration of articles: connection, voice, cost and content types.')}
        primaryAction={
          <Button
            startIcon={<Check />}
            onClick={() => void save()}
            loading={saving}
            disabled={!canUpdate || !dirty}
            data-testid="speech-save"
          >
            {t('save.label', 'Save')}
          </Button>
        }
      />
      <Layouts.Content>
        <Flex direction="column" alignItems="stretch" gap={6}>
          <ConnectionCard connection={data.connection} queue={data.queue} canNarrate={canNarrate} />
          <Card
            testId="speech-voice-cost"
            title={t('voiceCost.title', 'Voice and cost')}
            subtitle={t('voiceCost.subtitle', 'Credits are characters × 1 (verbatim) or × 2 (AI preprocessing).')}
          >
            <Grid.Root gap={6}>
              <Grid.Item col={6} s={12} direction="column" alignItems="stretch">
                <VoicePicker
                  value={form.defaultVoiceId}
                  voices={voices.data}
                  loading={voices.loading}
                  error={voices.error}
                  disabled={!canUpdate}
                  fieldError={message(fieldError(errors, 'defaultVoiceId'))}
                  preview={data.features?.voicePreview === true && canTranscribe}
                  onChange={(defaultVoiceId) => {
                    setForm({ ...form, defaultVoiceId });
                    setErrors((current) => current.filter((error) => error.path[0] !== 'defaultVoiceId'));
                  }}
                />
              </Grid.Item>
              <Grid.Item col={6} s={12} direction="column" alignItems="stretch">
                <CostPreview
                  preprocessType={form.preprocessType}
                  onPreprocessTypeChange={(preprocessType) => setForm({ ...form, preprocessType })}
                  disabled={!canUpdate}
                />
              </Grid.Item>
            </Grid.Root>
            <CostAverages preprocessType={form.preprocessType} averages={data.averages} enabledTypes={enabledTypes} />
          </Card>
          {form.localeVoices && data.locales ? (
            <LocaleVoicesCard
              locales={data.locales}
              value={form.localeVoices}
              defaultVoiceId={form.defaultVoiceId}
              voices={voices.data}
              loading={voices.loading}
              error={voices.error}
              savedChecks={data.localeVoiceChecks}
              disabled={!canUpdate}
              preview={data.features?.voicePreview === true && canTranscribe}
              onChange={(localeVoices) => setForm({ ...form, localeVoices })}
              {...(form.quoteVoices && Object.values(form.contentTypes).some((type) => type.enabled && type.passageVoices)
                ? {
                    quoteVoices: form.quoteVoices,
                    onQuoteVoicesChange: (quoteVoices: Record<string, string>) => setForm({ ...form, quoteVoices }),
                  }
                : {})}
            />
          ) : null}
          {form.lexicon ? (
            <LexiconCard
              rules={form.lexicon}
              locales={data.locales ?? []}
              disabled={!canUpdate}
              canHear={canUpdate && data.features?.voicePreview === true}
              errorOf={(index) => message(fieldError(errors, 'lexicon', String(index)))}
              onChange={(lexicon) => {
                setForm({ ...form, lexicon });
                setErrors((current) => current.filter((error) => error.path[0] !== 'lexicon'));
              }}
            />
          ) : null}
          {form.spoken ? (
            <SpokenFrameCard
              locales={data.locales ?? []}
              value={form.spoken}
              disabled={!canUpdate}
              errorFor={(field, locale) => message(locale ? fieldError(errors, field, locale) : fieldError(errors, field))}
              onChange={(spoken) => {
                setForm({ ...form, spoken });
                setErrors((current) =>
                  current.filter((error) => !['siteName', 'introTemplates', 'outroTemplates'].includes(String(error.path[0])))
                );
              }}
            />
          ) : null}
          <ContentTypesCard
            types={data.contentTypes}
            value={form.contentTypes}
            segmentCharacters={form.segmentCharacters}
            disabled={!canUpdate}
            errorFor={(uid, field) => message(fieldError(errors, 'contentTypes', uid, field))}
            segmentCharactersError={message(fieldError(errors, 'segmentCharacters'))}
            minWordPercent={form.minWordPercent}
            regenerateCredits={Object.fromEntries(
              data.contentTypes.map((type) => {
                const average = data.averages?.[type.uid];
                return [type.uid, average ? creditsFor(average.characters, form.preprocessType) : null];
              })
            )}
            minWordPercentError={message(fieldError(errors, 'verification', 'minWordAccuracy'))}
            onChange={(uid, next) => {
              setForm({ ...form, contentTypes: { ...form.contentTypes, [uid]: next } });
              setErrors((current) => current.filter((error) => !(error.path[0] === 'contentTypes' && error.path[1] === uid)));
            }}
            onSegmentCharactersChange={(segmentCharacters) => {
              setForm({ ...form, segmentCharacters });
              setErrors((current) => current.filter((error) => error.path[0] !== 'segmentCharacters'));
            }}
            onMinWordPercentChange={(minWordPercent) => {
              setForm({ ...form, minWordPercent });
              setErrors((current) => current.filter((error) => error.path[0] !== 'verification'));
            }}
          />
          {form.budget ? (
            <BudgetCard
              value={form.budget}
              // Narrated types, and any other with a limit saved (so it can be cleared).
              types={data.contentTypes.filter(
                (type) => form.contentTypes[type.uid]?.enabled || (form.budget?.contentTypes[type.uid] ?? null) !== null
              )}
              disabled={!canUpdate}
              errorFor={(...path) => message(fieldError(errors, 'budget', ...path))}
              onChange={(budget) => {
                setForm({ ...form, budget });
                setErrors((current) => current.filter((error) => error.path[0] !== 'budget'));
              }}
            />
          ) : null}
          <WebhooksCard />
        </Flex>
      </Layouts.Content>
    </Page.Main>
  );
};

const ProtectedSettingsPage = () => (
  <Page.Protect permissions={PERMISSIONS.readSettings}>
    <SettingsPage />
  </Page.Protect>
);

export default ProtectedSettingsPage;
