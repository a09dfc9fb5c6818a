import { Box, Field, Flex, Grid, NumberInput, Toggle, Typography } from '@strapi/design-system';
import type { ContentTypeDescription } from '../../api/types';
import { useTranslator } from '../../utils/useTranslator';
import { Card } from '../../components/Card';
import type { TypeForm } from './form';
import { GlobalSegmentField } from './type-sections/NarrationModeFields';
import { TYPE_SECTIONS, type TypeField } from './type-sections';

interface Props {
  types: ContentTypeDescription[];
  value: Record<string, TypeForm>;
  /** The global part size; undefined when the server does not offer it (older servers). */
  segmentCharacters: number | null | undefined;
  disabled: boolean;
  errorFor: (uid: string, field: TypeField) => string | undefined;
  segmentCharactersError?: string;
  /** The share of words a check must hear, in per cent; undefined when the server does not offer verification. */
  minWordPercent?: number | null;
  minWordPercentError?: string;
  onChange: (uid: string, next: TypeForm) => void;
  onSegmentCharactersChange: (value: number | null) => void;
  onMinWordPercentChange: (value: number | null) => void;
  /** What one regenerate of an average article of each type costs, by uid (null: no narration yet to average). */
  regenerateCredits: Record<string, number | null>;
}

export const ContentTypesCard = ({
  types,
  value,
  segmentCharacters,
  disabled,
  errorFor,
  segmentCharactersError,
  minWordPercent,
  minWordPercentError,
  onChange,
  onSegmentCharactersChange,
  onMinWordPercentChange,
  regenerateCredits,
}: Props) => {
  const t = useTranslator();

  return (
    <Card
      testId="speech-content-types"
      title={t('types.title', 'Narrated content')}
      subtitle={t('types.subtitle', 'Choose which content types are narrated and from which fields; when follows from the type.')}
    >
      {types.length === 0 ? (
        <Typography textColor="neutral600">{t('types.empty', 'This application has no content types yet.')}</Typography>
      ) : (
        <Flex direction="column" alignItems="stretch" gap={4}>
          {segmentCharacters !== undefined || minWordPercent !== undefined ? (
            <Grid.Root gap={4}>
              {segmentCharacters !== undefined ? (
                <Grid.Item col={6} s={12} direction="column" alignItems="stretch">
                  <GlobalSegmentField
                    value={segmentCharacters}
                    disabled={disabled}
                    error={segmentCharactersError}
                    onChange={onSegmentCharactersChange}
                  />
                </Grid.Item>
              ) : null}
              {minWordPercent !== undefined ? (
                <Grid.Item col={6} s={12} direction="column" alignItems="stretch">
                  <Field.Root
                    name="verification.minWordAccuracy"
                    error={minWordPercentError}
                    hint={t(
                      'types.minWordHint',
                      'For the types whose narrations are checked: a check that hears fewer of the words sent is flagged.'
                    )}
                  >
                    <Field.Label>{t('types.minWordPercent', 'Words a check must hear (%)')}</Field.Label>
                    <NumberInput
                      value={minWordPercent ?? undefined}
                      step={0.5}
                      disabled={disabled}
                      onValueChange={(next) => onMinWordPercentChange(next ?? null)}
                      data-testid="speech-min-word-percent"
                    />
                    <Field.Hint />
                    <Field.Error />
                  </Field.Root>
                </Grid.Item>
              ) : null}
            </Grid.Root>
          ) : null}
          {types.map((type) => {
            const form = value[type.uid];
            if (!form) return null;
            const update = (patch: Partial<TypeForm>) => onChange(type.uid, { ...form, ...patch });
            return (
              <Box
                key={type.uid}
                padding={4}
                hasRadius
                borderColor="neutral200"
                borderStyle="solid"
                borderWidth="1px"
                data-testid={`speech-type-${type.uid}`}
              >
                <Flex direction="column" alignItems="stretch" gap={4}>
                  <Flex justifyContent="space-between" alignItems="center" gap={4} wrap="wrap">
                    <Flex direction="column" alignItems="stretch" gap={1}>
                      <Typography variant="epsilon" fontWeight="bold">
                        {type.displayName}
                      </Typography>
                      <Typography variant="pi" textColor="neutral600">
                        <bdi dir="ltr">{type.uid}</bdi>
                        {type.kind === 'singleType' ? ` · ${t('types.singleType', 'single type')}` : ''}
                        {type.localized ? ` · ${t('types.localized', 'localized')}` : ''}
                      </Typography>
                    </Flex>
                    <Field.Root name={`${type.uid}.enabled`}>
                      <Field.Label>{t('types.enabled', 'Narration')}</Field.Label>
                      <Toggle
                        checked={form.enabled}
                        disabled={disabled}
                        onLabel={t('types.on', 'On')}
                        offLabel={t('types.off', 'Off')}
                        onChange={(event: React.ChangeEvent<HTMLInputElement>) => update({ enabled: event.target.checked })}
                        data-testid={`speech-type-toggle-${type.uid}`}
                      />
                    </Field.Root>
                  </Flex>
                  {form.enabled ? (
                    <Grid.Root gap={4}>
                      {TYPE_SECTIONS.map(({ id, Section }) => (
                        <Section
                          key={id}
                          type={type}
                          form={form}
                          disabled={disabled}
                          error={(field) => errorFor(type.uid, field)}
                          update={update}
                          segmentCharacters={segmentCharacters}
                          regenerateCredits={regenerateCredits[type.uid] ?? null}
                        />
                      ))}
                    </Grid.Root>
                  ) : null}
                </Flex>
              </Box>
            );
          })}
        </Flex>
      )}
    </Card>
  );
};
