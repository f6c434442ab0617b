/** A JSON value: what session-log events and tool presentation meta may hold. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
