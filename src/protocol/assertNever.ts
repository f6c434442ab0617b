/** Ends an exhaustive switch: adding a member to a closed union breaks compilation here. */
export function assertNever(value: never, what = 'value'): never {
  throw new Error(`Unexpected ${what}: ${JSON.stringify(value)}`);
}
