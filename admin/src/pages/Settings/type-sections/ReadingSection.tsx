import {
  Checkbox,
  Field,
  Flex,
  Grid,
  MultiSelect,
  MultiSelectOption,
  SingleSelect,
  SingleSelectOption,
  Typography,
} from '@strapi/design-system';
import { SKIPPABLE_BLOCKS, type SkippableBlock } from '../../../api/types';
import { useTranslator } from '../../../utils/useTranslator';
import { TITLE_FIELD_TYPES } from './type-form';
import type { TypeSectionProps } from './section';

const NO_FIELD = '__none__';

/** Labels of the blocks a narration can leave out. */
const BLOCK_LABELS: Record<SkippableBlock, [id: string, defaultMessage: string]> = {
  code: ['types.skip.code', 'Code'],
  quote: ['types.skip.quote', 'Quotes'],
  image: ['types.skip.image', 'Image captions'],
  table: ['types.skip.table', 'Tables'],
};

/** What is read of an entry, and when: the rule the type follows, its title, text and author fields, and the blocks left out. */
export function ReadingSection({ type, form, disabled, error, update }: TypeSectionProps) {
  const t = useTranslator();
  const titleOptions = type.fields.filter((field) => TITLE_FIELD_TYPES.has(field.type));
  const toggleBlock = (block: SkippableBlock, on: boolean) =>
    update({ skipBlocks: SKIPPABLE_BLOCKS.filter((candidate) => (candidate === block ? on : form.skipBlocks.includes(candidate))) });
  return (
    <>
      <Grid.Item col={4} s={12} direction="column" alignItems="stretch">
        <Field.Root name={`${type.uid}.trigger`} error={error('trigger')}>
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
          error={error('titleField')}
          value={form.titleField}
          fields={titleOptions}
          disabled={disabled}
          onChange={(titleField) => update({ titleField })}
        />
      </Grid.Item>
      <Grid.Item col={4} s={12} direction="column" alignItems="stretch">
        <Field.Root
          name={`${type.uid}.textFields`}
          error={error('textFields')}
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
            {type.fields.map((field) => (
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
                onCheckedChange={(checked) => toggleBlock(block, checked === true)}
              >
                {t(...BLOCK_LABELS[block])}
              </Checkbox>
            ))}
          </Flex>
          <Field.Hint />
        </Field.Root>
      </Grid.Item>
      <Grid.Item col={4} s={12} direction="column" alignItems="stretch">
        <OptionalFieldSelect
          name={`${type.uid}.authorField`}
          label={t('types.authorField', 'Author field')}
          hint={t('types.authorHint', "What '{author}' reads in the intro and outro.")}
          noneLabel={t('types.noAuthor', 'None')}
          error={error('authorField')}
          value={form.authorField}
          fields={titleOptions}
          disabled={disabled}
          onChange={(authorField) => update({ authorField })}
          testId={`speech-type-author-${type.uid}`}
        />
      </Grid.Item>
    </>
  );
}

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
        value={props.value ?? NO_FIELD}
        disabled={props.disabled}
        onChange={(next) => props.onChange(next === NO_FIELD ? null : String(next))}
        data-testid={props.testId}
      >
        <SingleSelectOption value={NO_FIELD}>{props.noneLabel}</SingleSelectOption>
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
