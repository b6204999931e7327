import type { BlockExecutionStatistics } from '@x/node-client';
import { CountedList } from '../ui/CountedList.tsx';
import { Field } from '../ui/Field.tsx';
import { dateTime, short } from '../ui/format.ts';
import { Link } from '../ui/Link.tsx';
import type { BlockView, TransactionView } from './read.ts';

/** Hash, time, parent, author, epoch and round of a block. */
export function BlockHeader({ block }: { block: BlockView }) {
  return (
    <dl className="fields">
      <Field label="Hash" testId="block-hash">
        <code>{block.hash}</code>
      </Field>
      <Field label="Time" testId="block-time">
        <time>{dateTime(block.time)}</time>
      </Field>
      <Field label="Parent" testId="block-parent">
        {/* The parent is the block one below: its hash, linked by height (the page reads blocks by height). */}
        {block.height > 0 ? (
          <Link to={{ page: 'block', height: String(block.height - 1) }} title={`block ${block.height - 1}`}>
            <code>{block.parent}</code>
          </Link>
        ) : (
          <code>{block.parent}</code>
        )}
      </Field>
      <Field label="Author" testId="block-author">
        <code>{block.author}</code>
      </Field>
      <Field label="Epoch / round" testId="block-epoch-round">
        {block.epoch} / {block.round}
      </Field>
    </dl>
  );
}

const STATISTICS: ReadonlyArray<readonly [keyof BlockExecutionStatistics, string]> = [
  ['user_txn_count', 'User transactions'],
  ['automated_txn_count', 'Automated transactions'],
  ['automation_record_count', 'Automation records'],
  ['block_total_user_gas_used', 'Gas used by user transactions'],
  ['block_total_automated_gas_used', 'Gas used by automated transactions'],
  ['block_gas_unit_price_min', 'Lowest gas unit price'],
  ['block_gas_unit_price_max', 'Highest gas unit price'],
  ['automated_txn_gas_unit_price', 'Gas unit price of automated transactions'],
];

/** The counts and gas of the block's execution; a node that has not collected one sends null. */
export function BlockStatistics({ statistics }: { statistics: BlockExecutionStatistics | undefined }) {
  return (
    <section>
      <h3>Execution statistics</h3>
      {statistics ? (
        <dl className="fields statistics">
          {STATISTICS.map(([key, label]) => {
            const value = statistics[key];
            return (
              <Field key={key} label={label}>
                {value === null || value === undefined ? <span className="muted">none</span> : value.toLocaleString('en-US')}
              </Field>
            );
          })}
        </dl>
      ) : (
        <p className="state empty">The node sent no statistics for this block.</p>
      )}
    </section>
  );
}

function BlockTransactionRow({ tx }: { tx: TransactionView }) {
  return (
    <div className="row">
      <Link to={{ page: 'transaction', hash: tx.hash }} title={tx.hash}>
        <code>{short(tx.hash)}</code>
      </Link>
      <code className="muted">{tx.kind}</code>
      {tx.status ? <span className={`status ${tx.status.toLowerCase()}`}>{tx.status}</span> : null}
      {tx.sent ? (
        <span className="muted">
          from <code title={tx.sent.sender}>{short(tx.sent.sender)}</code> #{tx.sent.sequenceNumber}
        </span>
      ) : null}
      {tx.call ? <code>{`${tx.call.module}::${tx.call.function}`}</code> : null}
    </div>
  );
}

/** The block's transactions in execution order, each linking to its page. */
export function BlockTransactions({ transactions }: { transactions: readonly TransactionView[] }) {
  return (
    <CountedList title="Transactions" label="Transactions of the block" items={transactions} empty="No transactions." itemKey={(tx) => tx.hash}>
      {(tx) => <BlockTransactionRow tx={tx} />}
    </CountedList>
  );
}
