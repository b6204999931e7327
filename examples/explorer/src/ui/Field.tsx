import type { ReactNode } from 'react';

/** One labelled value of a `<dl className="fields">`; `testId` lets the tests read the value alone. */
export function Field({ label, testId, children }: { label: string; testId?: string; children: ReactNode }) {
  return (
    <div>
      <dt>{label}</dt>
      <dd data-testid={testId}>{children}</dd>
    </div>
  );
}
