import type { Event } from '@x/node-client';
import type { EntryFunctionCall } from '@x/node-client/shapes';
import { CountedList } from '../ui/CountedList.tsx';
import { Field } from '../ui/Field.tsx';
import { JsonDetails } from '../ui/JsonDetails.tsx';
import { dateTime } from '../ui/format.ts';
import { Link } from '../ui/Link.tsx';
import type { TransactionView } from './read.ts';

const count = (n: number) => n.toLocaleString('en-US');

/** Kind, status, sender, sequence number, gas and block of a transaction. */
export function TransactionSummary({ tx }: { tx: TransactionView }) {
  const { sent, block } = tx;
  return (
    <dl className="fields">
      <Field label="Kind" testId="tx-kind">
        <code>{tx.kind}</code>
      </Field>
      <Field label="Status" testId="tx-status">
        {tx.status ? <span className={`status ${tx.status.toLowerCase()}`}>{tx.status}</span> : <span className="muted">not given</span>}
      </Field>
      {sent ? (
        <>
          <Field label="Sender" testId="tx-sender">
            <Link to={{ page: 'account', address: sent.sender }}>
              <code>{sent.sender}</code>
            </Link>
          </Field>
          <Field label="Sequence number" testId="tx-sequence-number">
            {sent.sequenceNumber}
          </Field>
          <Field label="Gas" testId="tx-gas">
            {tx.gasUsed === undefined ? 'not used' : `${count(tx.gasUsed)} used`} of {count(sent.maxGasAmount)} at {count(sent.gasUnitPrice)} per unit
          </Field>
        </>
      ) : (
        // Block metadata and automation records are the chain's own: nobody signed them.
        <Field label="Sender">
          <span className="muted">none ({tx.kind} transaction)</span>
        </Field>
      )}
      <Field label="Block" testId="tx-block">
        {block ? (
          <>
            <Link to={{ page: 'block', height: String(block.height) }}>{block.height}</Link> <time>{dateTime(block.time)}</time>
          </>
        ) : (
          <span className="muted">not in a block yet</span>
        )}
      </Field>
    </dl>
  );
}

/** `address::module::function<types>(arguments)`: what a transaction's entry function payload called. */
export function EntryCall({ call }: { call: EntryFunctionCall | undefined }) {
  if (!call) return <p className="muted">No entry function: the payload is of another kind.</p>;
  const types = call.typeArguments.length ? `<${call.typeArguments.join(', ')}>` : '';
  return (
    <section className="entry-call">
      <h3>Entry function</h3>
      <p>
        <code data-testid="tx-function">
          {call.address}::{call.module}::{call.function}
          {types}
        </code>
      </p>
      {call.arguments.length ? (
        <ol className="arguments" aria-label="Arguments">
          {call.arguments.map((arg, i) => (
            <li key={i}>
              <code>{typeof arg === 'string' ? arg : JSON.stringify(arg)}</code>
            </li>
          ))}
        </ol>
      ) : (
        <p className="muted">No arguments.</p>
      )}
    </section>
  );
}

/** The events a transaction emitted, in order, each with its data as JSON. */
export function EventList({ events }: { events: readonly Event[] }) {
  // An event has no id of its own; its place in the transaction is one.
  return (
    <CountedList title="Events" label="Events" items={events} empty="No events." itemKey={(_, i) => i}>
      {(event) => <JsonDetails type={event.type} data={event.data} />}
    </CountedList>
  );
}
