import { Box, Flex, Typography } from '@strapi/design-system';
import { WarningCircle } from '@strapi/icons';
import { useIntl } from 'react-intl';
import { textDirection } from '../utils/textDirection';

interface Props {
  children: React.ReactNode;
  testId: string;
  /** `danger` for a failure, `warning` (the default) for something to know before going on. */
  tone?: 'warning' | 'danger';
  /** A smaller line under the message. */
  detail?: React.ReactNode;
}

/**
 * A warning box with its icon, in the admin's language and its direction (a voice of another
 * language in the settings, edit view and bulk dialog; a narration's failure in the edit view).
 */
export const WarningNotice = ({ children, testId, tone = 'warning', detail }: Props) => {
  const { locale } = useIntl();
  return (
    <Flex gap={2} alignItems="flex-start" background={`${tone}100`} padding={2} hasRadius dir={textDirection(locale)} data-testid={testId}>
      <Box color={`${tone}600`} paddingTop="2px">
        <WarningCircle aria-hidden />
      </Box>
      <Flex direction="column" alignItems="stretch" gap={1}>
        <Typography variant="omega" textColor={`${tone}700`}>
          {children}
        </Typography>
        {detail ? (
          <Typography variant="pi" textColor="neutral700">
            {detail}
          </Typography>
        ) : null}
      </Flex>
    </Flex>
  );
};
