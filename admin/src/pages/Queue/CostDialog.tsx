import * as React from 'react';
import { Dialog, Flex, Loader, Typography } from '@strapi/design-system';
import { useIntl } from 'react-intl';
import { problemOf } from '../../api/errors';
import { ConfirmFooter } from '../../components/ConfirmFooter';
import { textDirection } from '../../utils/textDirection';
import { useTranslator } from '../../utils/useTranslator';

interface Props {
  title: string;
  icon: React.ReactElement;
  testId: string;
  /** The cost asked of the server: counting while it has no figures, its refusal if any. */
  estimate: { isFetching: boolean; error?: unknown; hasFigures: boolean };
  confirm: { label: string; testId: string; disabled: boolean; loading: boolean; onConfirm: () => void };
  onClose: () => void;
  children: React.ReactNode;
}

/** A paid action's dialog: what it would send and cost is shown first, and nothing goes until confirmed. */
export const CostDialog = ({ title, icon, testId, estimate, confirm, onClose, children }: Props) => {
  const t = useTranslator();
  const { locale } = useIntl();
  return (
    <Dialog.Root open onOpenChange={(open) => (open ? undefined : onClose())}>
      <Dialog.Content>
        <Dialog.Header>{title}</Dialog.Header>
        <Dialog.Body icon={icon}>
          {/* Drawn outside the page (a portal): its text takes the admin's direction here. */}
          <Flex direction="column" alignItems="stretch" gap={3} data-testid={testId} dir={textDirection(locale)}>
            {children}
            {estimate.isFetching && !estimate.hasFigures ? <Loader small>{t('queue.estimating', 'Counting the cost…')}</Loader> : null}
            {estimate.error ? <Typography textColor="danger600">{problemOf(estimate.error)?.message}</Typography> : null}
          </Flex>
        </Dialog.Body>
        <ConfirmFooter closes={false} {...confirm} />
      </Dialog.Content>
    </Dialog.Root>
  );
};
