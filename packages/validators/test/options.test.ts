import { describe, expect, it } from 'vitest';
import {
  DEFAULT_MAX_ISSUES,
  ValidationError,
  assertAccountStatementV2,
  assertTransactionOutput,
  isMoveValue,
  validateAccountStatementV2,
  validateMoveListCursor,
} from '@x/validators';
import { transactionInfoV2 } from './fixtures.js';
import { issuesOf } from './helpers.js';

/** A statement whose every record has three problems. */
const broken = (n: number) => ({
  record: Array.from({ length: n }, () => ({ ...transactionInfoV2, hash: 1, status: 'Done', output: 'None' })),
});

describe('options', () => {
  it('stops at the first issue by default', () => {
    expect(issuesOf(validateAccountStatementV2(broken(3)))).toEqual([{ path: '/record/0/hash', keyword: 'type', message: 'must be string' }]);
  });

  it('collects every issue with allErrors, in document order', () => {
    const issues = issuesOf(validateAccountStatementV2(broken(2), { allErrors: true }));
    expect(issues.map((i) => `${i.path} ${i.keyword}`)).toEqual([
      '/record/0/hash type',
      '/record/0/output enum',
      '/record/0/status enum',
      '/record/1/hash type',
      '/record/1/output enum',
      '/record/1/status enum',
    ]);
  });

  it(`caps allErrors at ${DEFAULT_MAX_ISSUES} issues unless maxIssues says otherwise`, () => {
    expect(DEFAULT_MAX_ISSUES).toBe(100);
    expect(issuesOf(validateAccountStatementV2(broken(50), { allErrors: true }))).toHaveLength(100);
    expect(issuesOf(validateAccountStatementV2(broken(50), { allErrors: true, maxIssues: 5 }))).toHaveLength(5);
    expect(issuesOf(validateAccountStatementV2(broken(50), { allErrors: true, maxIssues: 1000 }))).toHaveLength(150);
    expect(issuesOf(validateMoveListCursor([-1, 256, 1.5, 'x'], { allErrors: true, maxIssues: 2 })).map((i) => i.path)).toEqual(['/0', '/1']);
  });

  it('ignores maxIssues without allErrors and rejects a bad one', () => {
    expect(issuesOf(validateAccountStatementV2(broken(5), { maxIssues: 10 }))).toHaveLength(1);
    for (const maxIssues of [0, -1, 1.5, Number.NaN]) {
      expect(() => validateAccountStatementV2(broken(1), { allErrors: true, maxIssues })).toThrow(RangeError);
    }
  });

  it('isX narrows and honours strict', () => {
    const value: unknown = { U64: '18446744073709551615' };
    expect(isMoveValue(value)).toBe(true);
    if (isMoveValue(value)) expect('U64' in value && value.U64).toBe('18446744073709551615');
    expect(isMoveValue({ U64: 1 })).toBe(false);
    expect(isMoveValue({ Struct: { a: 1 } }, { strict: true })).toBe(true);
  });
});

function caught(fn: () => void): ValidationError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(ValidationError);
    return e as ValidationError;
  }
  throw new Error('expected a ValidationError');
}

describe('assertX', () => {
  it('throws a ValidationError with the issues and a message naming the paths', () => {
    const err = caught(() => assertAccountStatementV2(broken(2), { allErrors: true }));
    expect(err).toBeInstanceOf(Error);
    expect(err.name).toBe('ValidationError');
    expect(err.subject).toBe('AccountStatementV2');
    expect(err.issues).toHaveLength(6);
    expect(err.message).toBe(
      [
        'Invalid AccountStatementV2:',
        '  /record/0/hash: must be string',
        '  /record/0/output: must be "Empty" or an object with exactly one of the keys Dkg, Move, Oracle, Evm',
        '  /record/0/status: must be one of "Success", "Fail", "Invalid", "PendingAfterExecution", "Pending"',
        '  /record/1/hash: must be string',
        '  /record/1/output: must be "Empty" or an object with exactly one of the keys Dkg, Move, Oracle, Evm',
        '  /record/1/status: must be one of "Success", "Fail", "Invalid", "PendingAfterExecution", "Pending"',
      ].join('\n'),
    );
  });

  it('names the root and shortens long lists', () => {
    expect(() => assertTransactionOutput(7)).toThrow(/^Invalid TransactionOutput:\n {2}\(root\): must be "Empty"/);
    const err = caught(() => assertAccountStatementV2(broken(10), { allErrors: true }));
    expect(err.issues).toHaveLength(30);
    expect(err.message.split('\n')).toHaveLength(12);
    expect(err.message).toMatch(/\.\.\. and 20 more$/);
  });

  it('returns normally and narrows for a valid value', () => {
    const value: unknown = 'Empty';
    assertTransactionOutput(value, { strict: true });
    expect(value).toBe('Empty');
  });
});
