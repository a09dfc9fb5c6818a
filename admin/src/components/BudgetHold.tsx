import * as React from 'react';
import { Button, Flex } from '@strapi/design-system';
import { useNotification, useRBAC } from '@strapi/strapi/admin';
import { useIntl } from 'react-intl';
import { toProblem } from '../api/errors';
import { useSpeechLetThroughMutation } from '../api/speechApi';
import type { DocumentTarget, NarrationView } from '../api/types';
import { PERMISSIONS } from '../utils/permissions';
import { useTranslator } from '../utils/useTranslator';
import { WarningNotice } from './WarningNotice';

interface Props {
  row: Pick<NarrationView, 'credits'>;
  target: DocumentTarget;
  /** Called once the server let it through (the panel then watches the narration start). */
  onReleased: () => void;
}

/**
 * A narration the site's monthly budget holds: what it waits for and what it would
 * cost, and, for those who may change the settings, "Let it through this month".
 */
export const BudgetHold = ({ row, target, onReleased }: Props) => {
  const t = useTranslator();
  const { formatNumber } = useIntl();
  const { toggleNotification } = useNotification();
  const {
    allowedActions: { canUpdate },
  } = useRBAC(PERMISSIONS.updateSettings);
  const [letThrough, { isLoading }] = useSpeechLetThroughMutation();

  const release = async () => {
    try {
      const { released } = await letThrough({
        contentType: target.contentType,
        documentId: target.documentId,
        locale: target.locale ?? null,
      }).unwrap();
      if (released) {
        toggleNotification({
          type: 'success',
          message: t('budget.released', 'Let through: the narration goes out now, over this month’s budget.'),
        });
        onReleased();
      } else {
        toggleNotification({ type: 'info', message: t('budget.notWaiting', 'This narration no longer waits for the budget.') });
      }
    } catch (error) {
      toggleNotification({ type: 'danger', message: toProblem(error).message });
    }
  };

  const detail =
    row.credits === null
      ? t('budget.holdDetailUnknown', 'It waits until next month, or until it is let through.')
      : t('budget.holdDetail', 'It would cost {credits} credits. It waits until next month, or until it is let through.', {
          credits: formatNumber(row.credits),
        });

  return (
    <Flex direction="column" alignItems="stretch" gap={2} data-testid="speech-budget-hold">
      <WarningNotice testId="speech-budget-reason" detail={detail}>
        {t('budget.hold', 'The site’s monthly credit budget is reached: this narration was not sent.')}
      </WarningNotice>
      {canUpdate ? (
        <Button variant="secondary" size="S" loading={isLoading} onClick={() => void release()} data-testid="speech-let-through">
          {t('budget.letThrough', 'Let it through this month')}
        </Button>
      ) : null}
    </Flex>
  );
};
