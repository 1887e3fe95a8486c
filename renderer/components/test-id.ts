/**
 * Test ids on the native elements inside naive-ui components, whose own attributes land on a wrapper element.
 * Neither Vue's attribute types nor naive-ui's props have `data-*` members, hence the casts here.
 */
import type { ButtonProps } from 'naive-ui';
import type { InputHTMLAttributes } from 'vue';

/** Attributes for naive-ui's `input-props`: the test id on the `<input>` itself, so tests can type into it. */
export function inputTestId(id: string): InputHTMLAttributes {
  return { 'data-testid': id } as InputHTMLAttributes;
}

/** Attributes for the buttons of a naive-ui dialog (`positiveButtonProps`, `negativeButtonProps`). */
export function buttonTestId(id: string): ButtonProps {
  return { 'data-testid': id } as ButtonProps;
}
