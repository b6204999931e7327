/** A Move value under its type: the type as the summary, the value as indented JSON when opened. */
export function JsonDetails({ type, data }: { type: string; data: unknown }) {
  return (
    <details>
      <summary>
        <code>{type}</code>
      </summary>
      <pre>{JSON.stringify(data, null, 2)}</pre>
    </details>
  );
}
