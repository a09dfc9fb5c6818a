import { Button, Dialog } from '@strapi/design-system';
import { useTranslator } from '../utils/useTranslator';

/**
 * A confirmation's two buttons: cancel, and the action. An action that answers at once closes the
 * dialog as it runs; one that waits for its answer (`closes: false`) keeps it open, loading.
 */
export const ConfirmFooter = ({
  label,
  testId,
  onConfirm,
  closes = true,
  disabled,
  loading,
}: {
  label: string;
  testId: string;
  onConfirm: () => void;
  closes?: boolean;
  disabled?: boolean;
  loading?: boolean;
}) => {
  const t = useTranslator();
  const action = (
    <Button fullWidth variant="secondary" disabled={disabled} loading={loading} data-testid={testId} onClick={onConfirm}>
      {label}
    </Button>
  );
  return (
    <Dialog.Footer>
      <Dialog.Cancel>
        <Button fullWidth variant="tertiary">
          {t('common.cancel', 'Cancel')}
        </Button>
      </Dialog.Cancel>
      {closes ? <Dialog.Action>{action}</Dialog.Action> : action}
    </Dialog.Footer>
  );
};
