import * as React from 'react';

/**
 * The text of a combobox that shows its chosen option's label: the editor types freely to search,
 * and the text becomes the label again whenever the label changes (another choice, or the options
 * arriving after the value). The label last shown is kept in state and compared during render,
 * React's way of adjusting state when a prop changes: the stale text is never committed.
 */
export function useComboboxText(label: string) {
  const [text, setText] = React.useState(label);
  const [shownLabel, setShownLabel] = React.useState(label);
  if (label !== shownLabel) {
    setShownLabel(label);
    setText(label);
  }
  return [text, setText] as const;
}
