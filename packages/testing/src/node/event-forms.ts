/** How the ledger's documented event records (guid `<address>:<n>`, sequence number a number) are served by v3 and v4. */

type Body = Record<string, unknown>;

/** A documented record's event. */
export interface RecordEvent {
  readonly guid: string;
  readonly sequence_number: number;
  readonly type: string;
  readonly data: unknown;
}

/** As EventV3: the guid an object, numbers decimal text. */
export function eventV3(e: RecordEvent): Body {
  const i = e.guid.lastIndexOf(':');
  return {
    guid: { creation_number: e.guid.slice(i + 1), account_address: e.guid.slice(0, i) },
    sequence_number: String(e.sequence_number),
    type: e.type,
    data: e.data,
  };
}

/** As EventV4: EventV3 with the event's hash. */
export const eventV4 = (e: RecordEvent, hash: string): Body => ({ ...eventV3(e), hash });
