import { useState, type FormEvent } from 'react';

interface Props {
  address: string;
  shortcuts: Readonly<Record<string, string>>;
  onOpen: (address: string) => void;
}

/** The address box and the shortcut accounts. */
export function AccountForm({ address, shortcuts, onOpen }: Props) {
  const [text, setText] = useState(address);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onOpen(text.trim());
  };
  return (
    <form className="account-form" onSubmit={submit} role="search" aria-label="Open an account">
      <label htmlFor="address">Address</label>
      <input
        id="address"
        name="address"
        value={text}
        onChange={(e) => setText(e.target.value)}
        placeholder="0x1"
        autoComplete="off"
        spellCheck={false}
        aria-describedby="address-help"
      />
      <button type="submit">Open</button>
      <p id="address-help" className="muted">
        1 to 64 hex digits, with or without <code>0x</code>.
      </p>
      <fieldset className="shortcuts">
        <legend>Accounts</legend>
        {Object.entries(shortcuts).map(([name, a]) => (
          <button
            key={name}
            type="button"
            aria-pressed={a === address}
            title={a}
            onClick={() => {
              setText(a);
              onOpen(a);
            }}
          >
            {name}
          </button>
        ))}
      </fieldset>
    </form>
  );
}
