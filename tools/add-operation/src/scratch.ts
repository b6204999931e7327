/**
 * What `pnpm test:add-operation` does to its copy: the spec edit a contributor makes (as text, so the
 * rest of the spec, its u64 maxima included, stays byte for byte), and the files that differ after.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** What `pnpm gen --write` may change besides the spec: generated code and the API reports. */
export const UNCHANGED_BY_HAND: readonly RegExp[] = [/^packages\/[^/]+\/src\/generated\//, /^packages\/[^/]+\/api\/[^/]+\.api\.md$/];

/**
 * Adds `GET /rpc/v<next>/transactions/{hash}` (`getTransactionV<next>`, answering a new schema
 * `TransactionV<next>`) to the node spec at `file`, `next` being the version after the spec's newest, so
 * the edit stays new when a real version is added.
 *
 * @example
 * ```ts
 * addOperation('/tmp/copy/specs/node-rpc.openapi.yaml'); // { operationId: 'getTransactionV4', schema: 'TransactionV4' }
 * ```
 */
export function addOperation(file: string): { operationId: string; schema: string } {
  const text = readFileSync(file, 'utf8');
  const versions = [...text.matchAll(/operationId: \w+V(\d+)\b/g)].map((m) => Number(m[1]));
  const v = Math.max(...versions) + 1;
  const operationId = `getTransactionV${v}`;
  const schema = `TransactionV${v}`;
  const path = `  /rpc/v${v}/transactions/{hash}:
    get:
      operationId: ${operationId}
      summary: A transaction by its hash, with its inclusion proof
      description: The transaction with this hash and, with \`include_proof\`, the proof of its inclusion.
      tags: [transactions-v3]
      parameters:
        - $ref: '#/components/parameters/hash'
        - name: include_proof
          in: query
          required: false
          description: Whether to answer the Merkle proof of the transaction's inclusion.
          schema: { type: boolean }
      responses:
        '200':
          description: The transaction.
          headers:
            x-supra-chain-id:
              $ref: '#/components/headers/ChainId'
          content:
            application/json:
              schema:
                $ref: '#/components/schemas/${schema}'
        default:
          $ref: '#/components/responses/Undocumented'
`;
  const component = `    ${schema}:
      type: object
      description: A transaction with the proof of its inclusion (v${v}).
      required: [hash, txn_type, block_height]
      properties:
        hash: { $ref: '#/components/schemas/Hash' }
        txn_type: { type: string, enum: [user, automated, block_metadata, automation_record] }
        block_height: { type: integer, format: uint64, minimum: 0, maximum: 18446744073709551615 }
        proof: { type: [string, 'null'], pattern: '^0x([0-9a-f]{2})*$' }
`;
  if (!/^components:\n/m.test(text) || !/^ {2}schemas:\n/m.test(text)) throw new Error(`${file}: no components: or schemas: line to add the operation at`);
  // The path at the end of `paths:` (the line before `components:`), the schema at the end of `schemas:`.
  const withPath = text.replace(/^components:\n/m, () => `${path}components:\n`);
  const schemasAt = withPath.search(/^ {2}schemas:\n/m);
  const nextSection = withPath.slice(schemasAt + '  schemas:\n'.length).search(/^ {2}\S/m);
  const end = nextSection < 0 ? withPath.length : schemasAt + '  schemas:\n'.length + nextSection;
  writeFileSync(file, `${withPath.slice(0, end)}${withPath.slice(0, end).endsWith('\n') ? '' : '\n'}${component}${withPath.slice(end)}`);
  return { operationId, schema };
}

/** The files of `before` (path to sha256) whose content in `dir` differs, and the files of the generated folders and API reports that are new. */
export function changedFiles(dir: string, before: ReadonlyMap<string, string>): string[] {
  const changed: string[] = [];
  for (const [file, hash] of before) {
    const path = join(dir, file);
    if (!existsSync(path) || createHash('sha256').update(readFileSync(path)).digest('hex') !== hash) changed.push(file);
  }
  return changed.sort();
}
