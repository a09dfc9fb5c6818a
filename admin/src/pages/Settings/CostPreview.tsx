import * as React from 'react';
import { Box, Field, Flex, Loader, Radio, Table, Tbody, Td, Textarea, Th, Thead, Tr, Typography } from '@strapi/design-system';
import { useDebounce } from '@strapi/strapi/admin';
import { useIntl } from 'react-intl';
import { problemOf } from '../../api/errors';
import { useGetSpeechCostQuery } from '../../api/speechApi';
import type { ContentTypeDescription, PreprocessType } from '../../api/types';
import { useTranslator } from '../../utils/useTranslator';
import { creditsFor } from './form';

interface Props {
  preprocessType: PreprocessType;
  onPreprocessTypeChange: (value: PreprocessType) => void;
  disabled: boolean;
}

interface AveragesProps {
  preprocessType: PreprocessType;
  averages: Record<string, { articles: number; characters: number }>;
  enabledTypes: ContentTypeDescription[];
}

const SAMPLE_EN = 'Good morning. Here is the news of the day, read by the voice you chose.';
const SAMPLE_AR = 'صباح الخير. إليكم أخبار اليوم بالصوت الذي اخترتموه.';

export const CostPreview = ({ preprocessType, onPreprocessTypeChange, disabled }: Props) => {
  const { formatNumber, locale } = useIntl();
  const t = useTranslator();
  const [sample, setSample] = React.useState(locale.startsWith('ar') ? SAMPLE_AR : SAMPLE_EN);
  const debounced = useDebounce(sample, 300);
  const cost = useGetSpeechCostQuery(debounced);
  const costError = problemOf(cost.error);
  const selected = cost.data ? (preprocessType === '2' ? cost.data.preprocessed : cost.data.verbatim) : null;

  return (
    <Flex direction="column" alignItems="stretch" gap={4}>
      <Field.Root
        name="preprocessType"
        hint={t('mode.hint', 'AI preprocessing gives a cleaner narration and costs twice as many credits.')}
      >
        <Field.Label>{t('mode.label', 'Text preparation')}</Field.Label>
        <Radio.Group
          value={preprocessType}
          onValueChange={(value) => onPreprocessTypeChange(value === '2' ? '2' : '0')}
          disabled={disabled}
          aria-label={t('mode.label', 'Text preparation')}
          data-testid="speech-preprocess"
        >
          <Radio.Item value="0" data-testid="speech-preprocess-0">
            {t('mode.verbatimOption', 'Verbatim (characters × 1)')}
          </Radio.Item>
          <Radio.Item value="2" data-testid="speech-preprocess-2">
            {t('mode.preprocessedOption', 'AI preprocessing (characters × 2)')}
          </Radio.Item>
        </Radio.Group>
        <Field.Hint />
      </Field.Root>

      <Field.Root name="sample" hint={t('cost.sampleHint', 'Any text: its cost is counted as the service counts it.')}>
        <Field.Label>{t('cost.sample', 'Cost preview: sample text')}</Field.Label>
        <Textarea
          value={sample}
          onChange={(event: React.ChangeEvent<HTMLTextAreaElement>) => setSample(event.target.value)}
          data-testid="speech-sample"
        />
        <Field.Hint />
      </Field.Root>

      <Box
        background="primary100"
        padding={3}
        hasRadius
        data-testid="speech-sample-cost"
        data-credits={selected?.credits ?? ''}
        data-characters={selected?.characters ?? ''}
      >
        {selected ? (
          <Typography textColor="primary700">
            {t('cost.sampleResult', '{characters} characters × {multiplier} = {credits} credits', {
              characters: formatNumber(selected.characters),
              multiplier: selected.multiplier,
              credits: formatNumber(selected.credits),
            })}
          </Typography>
        ) : costError ? (
          <Typography textColor="danger600">{costError.message}</Typography>
        ) : (
          <Loader small>{t('cost.loading', 'Counting')}</Loader>
        )}
      </Box>
    </Flex>
  );
};

/** What the average article of each narrated type costs in both modes (the selected one in bold). */
export const CostAverages = ({ preprocessType, averages, enabledTypes }: AveragesProps) => {
  const { formatNumber } = useIntl();
  const t = useTranslator();
  const multiplier = preprocessType === '2' ? 2 : 1;
  return (
    <Flex direction="column" alignItems="stretch" gap={2}>
      <Typography variant="sigma" textColor="neutral600" tag="h3">
        {t('cost.averages', 'Average article of each narrated type')}
      </Typography>
      {enabledTypes.length === 0 ? (
        <Typography variant="pi" textColor="neutral600">
          {t('cost.noTypes', 'No content type is narrated yet.')}
        </Typography>
      ) : (
        <Table colCount={4} rowCount={enabledTypes.length + 1} data-testid="speech-averages">
          <Thead>
            <Tr>
              <Th>
                <Typography variant="sigma">{t('cost.type', 'Content type')}</Typography>
              </Th>
              <Th>
                <Typography variant="sigma">{t('cost.avgCharacters', 'Average characters')}</Typography>
              </Th>
              <Th>
                <Typography variant="sigma">{t('cost.verbatimCredits', 'Credits × 1')}</Typography>
              </Th>
              <Th>
                <Typography variant="sigma">{t('cost.preprocessedCredits', 'Credits × 2')}</Typography>
              </Th>
            </Tr>
          </Thead>
          <Tbody>
            {enabledTypes.map((type) => {
              const average = averages[type.uid];
              return (
                <Tr key={type.uid}>
                  <Td>
                    <Typography>{type.displayName}</Typography>
                  </Td>
                  {average && average.articles > 0 ? (
                    <>
                      <Td>
                        <Typography>
                          {t('cost.avgValue', '{characters} ({articles, plural, one {# narration} other {# narrations}})', {
                            characters: formatNumber(average.characters),
                            articles: average.articles,
                          })}
                        </Typography>
                      </Td>
                      <Td>
                        <Typography fontWeight={multiplier === 1 ? 'bold' : undefined}>
                          {formatNumber(creditsFor(average.characters, '0'))}
                        </Typography>
                      </Td>
                      <Td>
                        <Typography fontWeight={multiplier === 2 ? 'bold' : undefined}>
                          {formatNumber(creditsFor(average.characters, '2'))}
                        </Typography>
                      </Td>
                    </>
                  ) : (
                    <Td colSpan={3}>
                      <Typography textColor="neutral600">{t('cost.noAverage', 'No narration yet')}</Typography>
                    </Td>
                  )}
                </Tr>
              );
            })}
          </Tbody>
        </Table>
      )}
    </Flex>
  );
};
