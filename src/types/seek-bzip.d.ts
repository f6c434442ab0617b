/** seek-bzip ships no types; only `decode` is used (agents/registry/archives.ts). */
declare module 'seek-bzip' {
  export function decode(input: Buffer, output?: Buffer, multistream?: boolean): Buffer;
}
