import { Box, Flex, Typography } from '@strapi/design-system';
import { WarningCircle } from '@strapi/icons';
import { useIntl } from 'react-intl';
import { textDirection } from '../utils/textDirection';

/** One warning line, in the admin's language and its direction (settings, edit view, bulk dialog). */
export const VoiceLanguageWarning = ({ children, testId }: { children: React.ReactNode; testId: string }) => {
  const { locale } = useIntl();
  return (
    <Flex gap={2} alignItems="flex-start" background="warning100" padding={2} hasRadius dir={textDirection(locale)} data-testid={testId}>
      <Box color="warning600" paddingTop="2px">
        <WarningCircle aria-hidden />
      </Box>
      <Typography variant="omega" textColor="warning700">
        {children}
      </Typography>
    </Flex>
  );
};
