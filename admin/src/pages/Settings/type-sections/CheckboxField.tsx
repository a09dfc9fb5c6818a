import { Checkbox, Field, Grid } from '@strapi/design-system';

/** One setting of a type that is on or off, with what it does beneath it, across the type's box. */
export function CheckboxField(props: {
  name: string;
  label: string;
  hint: string;
  checked: boolean;
  disabled: boolean;
  onChange: (checked: boolean) => void;
  testId: string;
}) {
  return (
    <Grid.Item col={12} direction="column" alignItems="stretch">
      <Field.Root name={props.name} hint={props.hint}>
        <Checkbox
          name={props.name}
          checked={props.checked}
          disabled={props.disabled}
          onCheckedChange={(checked) => props.onChange(checked === true)}
          data-testid={props.testId}
        >
          {props.label}
        </Checkbox>
        <Field.Hint />
      </Field.Root>
    </Grid.Item>
  );
}
