import { FormApi } from '@tanstack/form-core';
import { expect, it } from 'vitest';
import { Address, DecimalString, type StandardSchemaV1 } from '@x/validators/standard';

// A form-level schema from field schemas (your code, a few lines): each field's issues under its name.
type Fields = Record<string, StandardSchemaV1>;
type Values<F extends Fields> = { [K in keyof F]: StandardSchemaV1.InferOutput<F[K]> };

function formSchema<F extends Fields>(fields: F): StandardSchemaV1<Values<F>> {
  return {
    '~standard': {
      version: 1,
      vendor: 'my-app',
      validate(value) {
        const values = value as Record<string, unknown>;
        const issues = Object.entries(fields).flatMap(([name, field]) => {
          const result = field['~standard'].validate(values[name]);
          if (result instanceof Promise) throw new TypeError(`${name}: an async schema`); // these are synchronous
          return (result.issues ?? []).map((i) => ({ message: i.message, path: [name, ...(i.path ?? [])] }));
        });
        return issues.length > 0 ? { issues } : { value: value as Values<F> };
      },
    },
  };
}

const Transfer = formSchema({ recipient: Address, amount: DecimalString });

it('validates a whole form with TanStack Form', async () => {
  const sent: { recipient: string; amount: string }[] = [];
  const form = new FormApi({
    defaultValues: { recipient: '', amount: '' },
    validators: { onChange: Transfer, onSubmit: Transfer }, // Standard Schemas, as TanStack Form takes them
    onSubmit: ({ value }) => void sent.push(value),
  });
  form.mount();

  form.setFieldValue('recipient', '0xzz');
  form.setFieldValue('amount', '1.5');
  expect(form.state.isValid).toBe(false);
  expect(form.getFieldMeta('recipient')?.errors).toEqual([
    { message: 'must be an account address: 0x followed by 1 to 64 hex digits', path: ['recipient'] },
  ]);
  expect(form.getFieldMeta('amount')?.errors).toEqual([{ message: 'must be a decimal number: digits 0-9 only', path: ['amount'] }]);

  form.setFieldValue('recipient', '0x1');
  form.setFieldValue('amount', '15');
  expect(form.state.isValid).toBe(true);
  await form.handleSubmit();
  expect(sent).toEqual([{ recipient: '0x1', amount: '15' }]);
});
