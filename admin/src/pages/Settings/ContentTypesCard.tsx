import {
  Box,
  Checkbox,
  Field,
  Flex,
  Grid,
  MultiSelect,
  MultiSelectOption,
  NumberInput,
  SingleSelect,
  SingleSelectOption,
  Toggle,
  Typography,
} from '@strapi/design-system';
import { SKIPPABLE_BLOCKS, type ContentTypeDescription, type SkippableBlock } from '../../api/types';
import { useTranslator } from '../../utils/useTranslator';
import { Card } from '../../components/Card';
import { TITLE_FIELD_TYPES, type TypeForm } from './form';
import { GlobalSegmentField, NarrationModeFields } from './NarrationModeFields';

interface Props {
  types: ContentTypeDescription[];
  value: Record<string, TypeForm>;
  /** The global part size; undefined when the server does not offer it (older servers). */
  segmentCharacters: number | null | undefined;
  disabled: boolean;
  errorFor: (
    uid: string,
    field: 'trigger' | 'titleField' | 'textFields' | 'authorField' | 'narrationMode' | 'segmentCharacters'
  ) => string | undefined;
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

const NO_TITLE = '__none__';

/** Labels of the blocks a narration can leave out. */
const BLOCK_LABELS: Record<SkippableBlock, [id: string, defaultMessage: string]> = {
  code: ['types.skip.code', 'Code'],
  quote: ['types.skip.quote', 'Quotes'],
  image: ['types.skip.image', 'Image captions'],
  table: ['types.skip.table', 'Tables'],
};

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
            const textFieldOptions = type.fields;
            const titleOptions = type.fields.filter((field) => TITLE_FIELD_TYPES.has(field.type));
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
                      <Grid.Item col={4} s={12} direction="column" alignItems="stretch">
                        <Field.Root name={`${type.uid}.trigger`} error={errorFor(type.uid, 'trigger')}>
                          <Field.Label>{t('types.trigger', 'Narrated when')}</Field.Label>
                          <Typography data-testid={`speech-type-rule-${type.uid}`}>
                            {form.trigger === 'save'
                              ? t('types.ruleSave', 'An entry is saved: this type has no draft & publish.')
                              : t('types.rulePublish', 'An entry is published: drafts are never read aloud.')}
                          </Typography>
                          <Field.Error />
                        </Field.Root>
                      </Grid.Item>
                      <Grid.Item col={4} s={12} direction="column" alignItems="stretch">
                        <OptionalFieldSelect
                          name={`${type.uid}.titleField`}
                          label={t('types.titleField', 'Title field')}
                          hint={t('types.titleHint', 'Sent as the title of the narration.')}
                          noneLabel={t('types.noTitle', 'None (use the entry id)')}
                          error={errorFor(type.uid, 'titleField')}
                          value={form.titleField}
                          fields={titleOptions}
                          disabled={disabled}
                          onChange={(titleField) => update({ titleField })}
                        />
                      </Grid.Item>
                      <Grid.Item col={4} s={12} direction="column" alignItems="stretch">
                        <Field.Root
                          name={`${type.uid}.textFields`}
                          error={errorFor(type.uid, 'textFields')}
                          hint={t('types.textHint', 'Read one after the other, in the order chosen.')}
                          data-testid={`speech-type-text-${type.uid}`}
                        >
                          <Field.Label>{t('types.textFields', 'Text fields')}</Field.Label>
                          <MultiSelect
                            value={form.textFields}
                            disabled={disabled}
                            withTags
                            placeholder={t('types.textPlaceholder', 'Choose fields')}
                            onChange={(next) => update({ textFields: next })}
                          >
                            {textFieldOptions.map((field) => (
                              <MultiSelectOption key={field.name} value={field.name}>
                                {`${field.name} (${field.type})`}
                              </MultiSelectOption>
                            ))}
                          </MultiSelect>
                          <Field.Hint />
                          <Field.Error />
                        </Field.Root>
                      </Grid.Item>
                      <Grid.Item col={8} s={12} direction="column" alignItems="stretch">
                        <Field.Root
                          name={`${type.uid}.skipBlocks`}
                          hint={t('types.skipHint', 'These blocks are left out of the narration.')}
                          data-testid={`speech-type-skip-${type.uid}`}
                        >
                          <Field.Label>{t('types.skipBlocks', 'Not read aloud')}</Field.Label>
                          <Flex gap={4} wrap="wrap">
                            {SKIPPABLE_BLOCKS.map((block) => (
                              <Checkbox
                                key={block}
                                name={`${type.uid}.skipBlocks.${block}`}
                                checked={form.skipBlocks.includes(block)}
                                disabled={disabled}
                                onCheckedChange={(checked) =>
                                  update({
                                    skipBlocks: SKIPPABLE_BLOCKS.filter((candidate) =>
                                      candidate === block ? checked === true : form.skipBlocks.includes(candidate)
                                    ),
                                  })
                                }
                              >
                                {t(...BLOCK_LABELS[block])}
                              </Checkbox>
                            ))}
                          </Flex>
                          <Field.Hint />
                        </Field.Root>
                      </Grid.Item>
                      <Grid.Item col={12} direction="column" alignItems="stretch">
                        <Field.Root
                          name={`${type.uid}.passageVoices`}
                          hint={t(
                            'types.passageVoicesHint',
                            'A paragraph in another language is read by the voice of its language, a quote by the quote voice. Voice changes become parts: the cost stays the characters read.'
                          )}
                        >
                          <Checkbox
                            name={`${type.uid}.passageVoices`}
                            checked={form.passageVoices}
                            disabled={disabled}
                            onCheckedChange={(checked) => update({ passageVoices: checked === true })}
                            data-testid={`speech-type-passage-voices-${type.uid}`}
                          >
                            {t('types.passageVoices', 'Read each passage in the voice of its language')}
                          </Checkbox>
                          <Field.Hint />
                        </Field.Root>
                      </Grid.Item>
                      <Grid.Item col={12} direction="column" alignItems="stretch">
                        <Field.Root
                          name={`${type.uid}.verify`}
                          hint={t(
                            'types.verifyHint',
                            'Each stored narration is sent to speech to text and compared with the text that was read.'
                          )}
                        >
                          <Checkbox
                            name={`${type.uid}.verify`}
                            checked={form.verify}
                            disabled={disabled}
                            onCheckedChange={(checked) => update({ verify: checked === true })}
                            data-testid={`speech-type-verify-${type.uid}`}
                          >
                            {t('types.verify', 'Check each narration by listening to it')}
                          </Checkbox>
                          <Field.Hint />
                        </Field.Root>
                      </Grid.Item>
                      {form.verify ? (
                        <Grid.Item col={6} s={12} direction="column" alignItems="stretch">
                          <Field.Root
                            name={`${type.uid}.verification.onMismatch`}
                            hint={
                              form.onMismatch === 'regenerate'
                                ? regenerateCredits[type.uid] != null && form.narrationMode === 'segmented'
                                  ? t(
                                      'types.onMismatchCostParts',
                                      'Paid like a regenerate of the parts that differed, the others kept: at most about {credits} credits for an article of average length here, within the budget.',
                                      { credits: regenerateCredits[type.uid] }
                                    )
                                  : regenerateCredits[type.uid] != null
                                    ? t(
                                        'types.onMismatchCost',
                                        'Paid like a regenerate: about {credits} credits for an article of average length here, within the budget.',
                                        { credits: regenerateCredits[type.uid] }
                                      )
                                    : t(
                                        'types.onMismatchCostUnknown',
                                        "Paid like a regenerate: the article's characters in credits, within the budget."
                                      )
                                : t('types.onMismatchFlag', 'The narration stays ready; the edit view and the list show the places.')
                            }
                          >
                            <Field.Label>{t('types.onMismatch', 'When a check finds a difference')}</Field.Label>
                            <SingleSelect
                              size="S"
                              value={form.onMismatch}
                              disabled={disabled}
                              onChange={(next) => update({ onMismatch: next === 'regenerate' ? 'regenerate' : 'flag' })}
                              data-testid={`speech-type-on-mismatch-${type.uid}`}
                            >
                              <SingleSelectOption value="flag">{t('types.onMismatch.flag', 'Only flag it')}</SingleSelectOption>
                              <SingleSelectOption value="regenerate">
                                {t('types.onMismatch.regenerate', 'Narrate the article again, once (paid)')}
                              </SingleSelectOption>
                            </SingleSelect>
                            <Field.Hint />
                          </Field.Root>
                        </Grid.Item>
                      ) : null}
                      <Grid.Item col={4} s={12} direction="column" alignItems="stretch">
                        <OptionalFieldSelect
                          name={`${type.uid}.authorField`}
                          label={t('types.authorField', 'Author field')}
                          hint={t('types.authorHint', "What '{author}' reads in the intro and outro.")}
                          noneLabel={t('types.noAuthor', 'None')}
                          error={errorFor(type.uid, 'authorField')}
                          value={form.authorField}
                          fields={titleOptions}
                          disabled={disabled}
                          onChange={(authorField) => update({ authorField })}
                          testId={`speech-type-author-${type.uid}`}
                        />
                      </Grid.Item>
                      {segmentCharacters !== undefined ? (
                        <NarrationModeFields
                          uid={type.uid}
                          form={form}
                          globalSize={segmentCharacters}
                          disabled={disabled}
                          errors={{
                            narrationMode: errorFor(type.uid, 'narrationMode'),
                            segmentCharacters: errorFor(type.uid, 'segmentCharacters'),
                          }}
                          onChange={update}
                        />
                      ) : null}
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

/** A select of one of the type's text fields, or none (the title and the author field). */
function OptionalFieldSelect(props: {
  name: string;
  label: string;
  hint: string;
  noneLabel: string;
  error?: string;
  value: string | null | undefined;
  fields: Array<{ name: string }>;
  disabled: boolean;
  onChange: (field: string | null) => void;
  testId?: string;
}) {
  return (
    <Field.Root name={props.name} error={props.error} hint={props.hint}>
      <Field.Label>{props.label}</Field.Label>
      <SingleSelect
        value={props.value ?? NO_TITLE}
        disabled={props.disabled}
        onChange={(next) => props.onChange(next === NO_TITLE ? null : String(next))}
        data-testid={props.testId}
      >
        <SingleSelectOption value={NO_TITLE}>{props.noneLabel}</SingleSelectOption>
        {props.fields.map((field) => (
          <SingleSelectOption key={field.name} value={field.name}>
            {field.name}
          </SingleSelectOption>
        ))}
      </SingleSelect>
      <Field.Hint />
      <Field.Error />
    </Field.Root>
  );
}
