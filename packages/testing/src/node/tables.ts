/**
 * Move tables (`getTableItemV2`, `POST /rpc/v2/tables/{table_handle}/item`). The stub has one: the
 * publisher's `registry::Registry` holds `names`, a `0x1::table::Table<address, 0x1::string::String>` (its
 * resource carries the handle, `{ "handle": "0x…" }`) from each seeded account's address to its name in
 * `STUB_ACCOUNTS`. An item is answered as the document's one-key MoveValue (`{ "String": "alice" }`).
 *
 * A node finds an item by the bytes of the key read as `key_type`, and reads the bytes it finds as
 * `value_type`. So: a key that cannot be read as `key_type`, or a type that is none, is a 400; an unknown
 * handle, a key that is not in the table, or a key of another type than the table's (other bytes) is a
 * 404 `{ message }`, as a node's missing item; a found item asked for as another type than the table's
 * value type is a 400 (its bytes do not read as that type).
 */
import { canonicalAddress } from '@x/common';
import { errorResponse, jsonResponse, type StubResponse } from '../router.ts';
import { CHAIN_ACCOUNTS, STUB_ACCOUNTS } from './accounts.ts';
import type { ChainHandler } from './handling.ts';
import { readMove, sameValue } from './move-json.ts';
import { STRING_TAG, V, parseTypeTag, st, toJson, toMoveValueV1, typeTagToString, type MoveVal, type TypeTag } from './move.ts';
import { readJsonBody } from './request-body.ts';
import { registryNamesHandle } from './resources.ts';

/** A table: the types of its keys and values, and its items. */
export interface TableView {
  readonly keyType: TypeTag;
  readonly valueType: TypeTag;
  readonly items: ReadonlyArray<readonly [MoveVal, MoveVal]>;
}

/** The tables of the seeded chain, by handle. */
export function seededTables(seed: number): Map<string, TableView> {
  const names: TableView = {
    keyType: 'address',
    valueType: st(STRING_TAG),
    items: CHAIN_ACCOUNTS.map((name) => [V.address(STUB_ACCOUNTS[name]), V.string(name)] as const),
  };
  return new Map([[registryNamesHandle(seed), names]]);
}

/** A request's text in a message: bounded, whatever was sent. */
const shown = (value: MoveVal): string => {
  const text = JSON.stringify(toJson(value));
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
};

export function tableReads(tables: ReadonlyMap<string, TableView>) {
  const invalid = (message: string): StubResponse => errorResponse(400, 'invalid_table_request', message);

  const getTableItem: ChainHandler = ({ req, params }) => {
    const raw = params.table_handle as string;
    const handle = canonicalAddress(raw);
    if (handle === undefined) return errorResponse(400, 'invalid_table_handle', `table_handle must be 1 to 64 hex digits with or without 0x, got '${raw.slice(0, 200)}'`);
    const body = readJsonBody(req);
    if (!body.ok) return body.response;
    const { key_type: keyTypeText, value_type: valueTypeText } = body.value;
    if (typeof keyTypeText !== 'string' || typeof valueTypeText !== 'string' || !Object.hasOwn(body.value, 'key')) {
      return invalid('the body must be { "key_type": "<Move type>", "value_type": "<Move type>", "key": <the key as JSON> }');
    }
    const keyType = parseTypeTag(keyTypeText);
    const valueType = parseTypeTag(valueTypeText);
    if (keyType === undefined || valueType === undefined) {
      return invalid(`key_type and value_type must be Move types, e.g. address or 0x1::string::String; got '${(keyType === undefined ? keyTypeText : valueTypeText).slice(0, 200)}'`);
    }
    const key = readMove(keyType, body.value.key);
    if (!key.ok) return invalid(`key is no ${typeTagToString(keyType)}: ${key.why}`);

    const notFound = (): StubResponse => jsonResponse(404, { message: `Table Item not found by Table handle(${handle}), Table key(${shown(key.value)})` });
    const table = tables.get(handle);
    if (table === undefined || typeTagToString(keyType) !== typeTagToString(table.keyType)) return notFound();
    const item = table.items.find(([k]) => sameValue(k, key.value));
    if (item === undefined) return notFound();
    if (typeTagToString(valueType) !== typeTagToString(table.valueType)) {
      return invalid(`the item at that key is no ${typeTagToString(valueType)}: it does not read as one`);
    }
    return jsonResponse(200, toMoveValueV1(item[1]));
  };

  return { getTableItemV2: getTableItem } satisfies Record<string, ChainHandler>;
}
