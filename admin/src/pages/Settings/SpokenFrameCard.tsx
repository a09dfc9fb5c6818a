import { Field, Grid, TextInput, Typography } from '@strapi/design-system';
import { useTranslator } from '../../utils/useTranslator';
import { Card } from '../../components/Card';
import { ALL_LOCALES } from '../../api/types';
import type { SpokenFrame } from './form';

interface Props {
  locales: string[];
  value: SpokenFrame;
  disabled: boolean;
  errorFor: (field: 'siteName' | 'introTemplates' | 'outroTemplates', locale?: string) => string | undefined;
  onChange: (next: SpokenFrame) => void;
}

/** Settings -> Speech: the site name and what is read before and after every article, per locale. */
export const SpokenFrameCard = ({ locales, value, disabled, errorFor, onChange }: Props) => {
  const t = useTranslator();
  const rows = [ALL_LOCALES, ...locales.filter((locale) => locale !== ALL_LOCALES)];
  const setTemplate = (which: 'introTemplates' | 'outroTemplates', locale: string, template: string) =>
    onChange({ ...value, [which]: { ...value[which], [locale]: template } });

  return (
    <Card
      testId="speech-spoken-frame"
      title={t('frame.title', 'Intro and outro')}
      subtitle={t(
        'frame.subtitle',
        "Read before and after every article. '{title}' is the article's title, '{author}' its author field, '{site}' the site name."
      )}
    >
      <Grid.Root gap={4}>
        <Grid.Item col={6} s={12} direction="column" alignItems="stretch">
          <Field.Root name="siteName" error={errorFor('siteName')} hint={t('frame.siteHint', "What '{site}' reads.")}>
            <Field.Label>{t('frame.siteName', 'Site name')}</Field.Label>
            <TextInput
              value={value.siteName}
              disabled={disabled}
              onChange={(event: React.ChangeEvent<HTMLInputElement>) => onChange({ ...value, siteName: event.target.value })}
              data-testid="speech-site-name"
            />
            <Field.Hint />
            <Field.Error />
          </Field.Root>
        </Grid.Item>
      </Grid.Root>
      {rows.map((locale) => (
        <Grid.Root key={locale} gap={4} data-testid={`speech-templates-${locale}`}>
          <Grid.Item col={2} s={12} direction="column" alignItems="stretch">
            <Typography variant="omega" fontWeight="bold">
              {locale === ALL_LOCALES ? t('frame.allLocales', 'Every other language') : locale}
            </Typography>
          </Grid.Item>
          {(['introTemplates', 'outroTemplates'] as const).map((which) => (
            <Grid.Item key={which} col={5} s={12} direction="column" alignItems="stretch">
              <Field.Root name={`${which}.${locale}`} error={errorFor(which, locale)}>
                <Field.Label>
                  {which === 'introTemplates'
                    ? t('frame.intro', 'Intro ({locale})', { locale })
                    : t('frame.outro', 'Outro ({locale})', { locale })}
                </Field.Label>
                <TextInput
                  value={value[which][locale] ?? ''}
                  disabled={disabled}
                  placeholder={which === 'introTemplates' ? t('frame.introPlaceholder', "'{title}', by '{author}'.") : ''}
                  onChange={(event: React.ChangeEvent<HTMLInputElement>) => setTemplate(which, locale, event.target.value)}
                  data-testid={`speech-${which === 'introTemplates' ? 'intro' : 'outro'}-${locale}`}
                />
                <Field.Error />
              </Field.Root>
            </Grid.Item>
          ))}
        </Grid.Root>
      ))}
    </Card>
  );
};
