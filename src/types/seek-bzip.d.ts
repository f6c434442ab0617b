/** seek-bzip ships no types; only `decode` is used (services/registry/archives.ts). */
declare module 'seek-bzip' {
  export function decode(input: Buffer, output?: Buffer, multistream?: boolean): Buffer;
}
