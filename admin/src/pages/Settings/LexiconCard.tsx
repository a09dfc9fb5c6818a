import * as React from 'react';
import {
  Button,
  Checkbox,
  Flex,
  IconButton,
  SingleSelect,
  SingleSelectOption,
  Table,
  Tbody,
  Td,
  TextInput,
  Th,
  Thead,
  Tr,
  Typography,
} from '@strapi/design-system';
import { Play, Plus, Trash } from '@strapi/icons';
import { hearLexiconRule } from '../../api/binary';
import { useSamplePlayer } from '../../api/hooks';
import type { LexiconRule } from '../../api/types';
import { useTranslator } from '../../utils/useTranslator';
import { Card } from '../../components/Card';
import { emptyLexiconRule, offersArabicOptions } from './form';

interface Props {
  rules: LexiconRule[];
  locales: string[];
  disabled: boolean;
  /** May hear a rule (POST /lexicon/hear needs settings.update and spends speech generation). */
  canHear: boolean;
  /** The message of a rule's error (local or the server's), if any. */
  errorOf: (index: number) => string | undefined;
  onChange: (rules: LexiconRule[]) => void;
}

const EVERY_LOCALE = '__all__';

type RuleOption = 'caseSensitive' | 'ignoreDiacritics' | 'letterVariants';

/** Settings -> Speech: the pronunciation lexicon, one rule a row, each heard before it is saved. */
export const LexiconCard = ({ rules, locales, disabled, canHear, errorOf, onChange }: Props) => {
  const player = useSamplePlayer('SpeechLexicon');
  const t = useTranslator();

  const update = (index: number, patch: Partial<LexiconRule>) =>
    onChange(rules.map((rule, position) => (position === index ? { ...rule, ...patch } : rule)));
  const option = (index: number, rule: LexiconRule, name: RuleOption, label: string) => (
    <Checkbox
      name={`lexicon.${index}.${name}`}
      checked={rule[name] === true}
      disabled={disabled}
      onCheckedChange={(checked) => update(index, { [name]: checked === true })}
    >
      {label}
    </Checkbox>
  );

  return (
    <Card
      testId="speech-lexicon"
      title={t('lexicon.title', 'Pronunciation')}
      subtitle={t(
        'lexicon.subtitle',
        'Terms read another way: a name, an abbreviation, a word the voice gets wrong. Applies to narrations made after saving.'
      )}
      action={
        <Button
          variant="secondary"
          startIcon={<Plus />}
          disabled={disabled}
          onClick={() => onChange([...rules, emptyLexiconRule()])}
          data-testid="speech-lexicon-add"
        >
          {t('lexicon.add', 'Add a rule')}
        </Button>
      }
    >
      {rules.length === 0 ? (
        <Typography textColor="neutral600">{t('lexicon.empty', 'No rule yet: every word is read as written.')}</Typography>
      ) : (
        <Table colCount={5} rowCount={rules.length + 1}>
          <Thead>
            <Tr>
              <Th>
                <Typography variant="sigma">{t('lexicon.term', 'Written')}</Typography>
              </Th>
              <Th>
                <Typography variant="sigma">{t('lexicon.spoken', 'Spoken as')}</Typography>
              </Th>
              <Th>
                <Typography variant="sigma">{t('lexicon.locale', 'Language')}</Typography>
              </Th>
              <Th>
                <Typography variant="sigma">{t('lexicon.options', 'Matching')}</Typography>
              </Th>
              <Th>
                <Typography variant="sigma">{t('lexicon.actions', 'Actions')}</Typography>
              </Th>
            </Tr>
          </Thead>
          <Tbody>
            {rules.map((rule, index) => {
              const error = errorOf(index);
              const number = index + 1;
              const key = `rule-${index}`;
              return (
                <React.Fragment key={key}>
                  <Tr data-testid={`speech-lexicon-rule-${index}`}>
                    <Td>
                      <TextInput
                        aria-label={t('lexicon.termOf', 'Written form of rule {number}', { number })}
                        value={rule.term}
                        dir="auto"
                        disabled={disabled}
                        hasError={Boolean(error)}
                        onChange={(event: React.ChangeEvent<HTMLInputElement>) => update(index, { term: event.target.value })}
                      />
                    </Td>
                    <Td>
                      <TextInput
                        aria-label={t('lexicon.spokenOf', 'Spoken form of rule {number}', { number })}
                        value={rule.spoken}
                        dir="auto"
                        disabled={disabled}
                        hasError={Boolean(error)}
                        onChange={(event: React.ChangeEvent<HTMLInputElement>) => update(index, { spoken: event.target.value })}
                      />
                    </Td>
                    <Td>
                      <SingleSelect
                        aria-label={t('lexicon.localeOf', 'Language of rule {number}', { number })}
                        value={rule.locale ?? EVERY_LOCALE}
                        disabled={disabled}
                        onChange={(next) => {
                          const locale = next === EVERY_LOCALE ? null : String(next);
                          // The Arabic options mean nothing to a rule of another language.
                          const arabic = offersArabicOptions({ locale });
                          update(index, arabic ? { locale } : { locale, ignoreDiacritics: false, letterVariants: false });
                        }}
                      >
                        <SingleSelectOption value={EVERY_LOCALE}>{t('lexicon.allLocales', 'All languages')}</SingleSelectOption>
                        {locales.map((locale) => (
                          <SingleSelectOption key={locale} value={locale}>
                            {locale}
                          </SingleSelectOption>
                        ))}
                      </SingleSelect>
                    </Td>
                    <Td>
                      <Flex direction="column" alignItems="flex-start" gap={1}>
                        {option(index, rule, 'caseSensitive', t('lexicon.caseSensitive', 'Same case only'))}
                        {offersArabicOptions(rule) ? (
                          <>
                            {option(index, rule, 'ignoreDiacritics', t('lexicon.ignoreDiacritics', 'With or without diacritics'))}
                            {option(index, rule, 'letterVariants', t('lexicon.letterVariants', 'Any form of alif, ya, ta marbuta'))}
                          </>
                        ) : null}
                      </Flex>
                    </Td>
                    <Td>
                      <Flex gap={1}>
                        {canHear ? (
                          <IconButton
                            label={t('lexicon.hear', 'Hear it')}
                            variant="secondary"
                            disabled={!rule.spoken.trim() || player.stateOf(key) === 'loading'}
                            data-state={player.stateOf(key)}
                            data-testid={`speech-lexicon-hear-${index}`}
                            onClick={() => void player.play(key, (token) => hearLexiconRule(rule, token))}
                          >
                            <Play />
                          </IconButton>
                        ) : null}
                        <IconButton
                          label={t('lexicon.remove', 'Remove the rule')}
                          variant="danger-light"
                          disabled={disabled}
                          data-testid={`speech-lexicon-remove-${index}`}
                          onClick={() => onChange(rules.filter((_rule, position) => position !== index))}
                        >
                          <Trash />
                        </IconButton>
                      </Flex>
                    </Td>
                  </Tr>
                  {error ? (
                    <Tr>
                      <Td colSpan={5}>
                        <Typography variant="pi" textColor="danger600" data-testid={`speech-lexicon-error-${index}`}>
                          {error}
                        </Typography>
                      </Td>
                    </Tr>
                  ) : null}
                </React.Fragment>
              );
            })}
          </Tbody>
        </Table>
      )}
    </Card>
  );
};
