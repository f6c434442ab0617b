/**
 * Extracts a downloaded agent archive into an empty folder, refusing the whole archive at the first
 * entry that is not a plain file or folder inside it (see core/registryInstall `safeEntryPath`).
 *
 * Libraries, chosen by bundled size (minified, gzipped, as they land in the VSIX) and fitness:
 * - zip: `yauzl` (~9 KB): reads the central directory (the authoritative entry list) from disk,
 *   streams each entry, checks sizes and CRCs; agent zips are tens of MB, never held in memory.
 *   (`fflate` unzipSync is ~3 KB but holds the whole archive and its output in memory.)
 * - tar: `tar-stream` (~12 KB) gives every raw header (type, name, mode) so this module decides;
 *   `tar` (~26 KB) silently rewrites `..` and absolute entries instead of refusing them.
 *   gzip is Node's zlib.
 * - bzip2: `seek-bzip` (~5 KB), pure JS, whole-buffer: no agent in the registry ships `.tar.bz2`
 *   today, and it keeps extraction in one checked code path on every OS (the system `tar -xjf`
 *   would need its own listing check and is not on every Windows).
 * Nothing here imports `vscode`, so unit tests run it in plain Node.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import * as zlib from 'node:zlib';
import * as tar from 'tar-stream';
import * as yauzl from 'yauzl';
import { assertNever } from '../../../protocol/assertNever';
import { checkEntryType, safeEntryPath, UnsafeArchiveError, type ArchiveKind, type EntryType } from './model/registryInstall';

/** More than any agent needs; stops an archive that inflates without end. */
const MAX_EXTRACTED_BYTES = 4 * 1024 ** 3;

/**
 * Extracts `file` into `dest` (which must be a new, empty folder the caller removes on failure).
 * For a raw binary, `rawName` is the file name it gets.
 */
export async function extractArchive(file: string, kind: ArchiveKind, dest: string, rawName: string): Promise<void> {
  await fs.promises.mkdir(dest, { recursive: true });
  const budget = { left: MAX_EXTRACTED_BYTES };
  switch (kind) {
    case 'zip':
      return extractZip(file, dest, budget);
    case 'tar.gz':
      return extractTar(fs.createReadStream(file).pipe(zlib.createGunzip()), dest, budget);
    case 'tar.bz2':
      return extractTar(Readable.from([await bunzip(file)]), dest, budget);
    case 'raw': {
      const target = path.join(dest, ...safeEntryPath(rawName).split('/'));
      await fs.promises.mkdir(path.dirname(target), { recursive: true });
      await fs.promises.copyFile(file, target);
      return;
    }
    default:
      assertNever(kind, 'archive kind');
  }
}

async function bunzip(file: string): Promise<Buffer> {
  // Loaded on first use: most installs never need it.
  const bzip = (await import('seek-bzip')) as typeof import('seek-bzip') & { default?: typeof import('seek-bzip') };
  // A CommonJS module: its exports arrive as `default` or spread, depending on the loader.
  return (bzip.default ?? bzip).decode(await fs.promises.readFile(file));
}

function tarEntryType(type: tar.Header['type'] | null | undefined): EntryType {
  switch (type) {
    case 'file':
    case 'contiguous-file':
      return 'file';
    case 'directory':
      return 'directory';
    case 'symlink':
      return 'symlink';
    case 'link':
      return 'hardlink';
    case 'block-device':
    case 'character-device':
    case 'fifo':
    // tar-stream reports a type flag it does not know as null: never guess that it is a file.
    case null:
    case undefined:
      return 'other';
    default:
      assertNever(type, 'tar entry type');
  }
}

async function extractTar(input: Readable, dest: string, budget: { left: number }): Promise<void> {
  const extract = tar.extract();
  // tar-stream's streams are streamx streams: piped by hand, each side's error ends the loop below.
  let failure: Error | undefined;
  const fail = (error: Error) => {
    failure ??= error;
    extract.destroy(error);
  };
  input.once('error', fail);
  input.pipe(extract as unknown as NodeJS.WritableStream);
  for await (const entry of extract) {
    const { name, type, mode, size } = entry.header;
    const kind = tarEntryType(type);
    checkEntryType(name, kind);
    const relative = safeEntryPath(name);
    const target = relative ? path.join(dest, ...relative.split('/')) : dest;
    if (kind === 'directory') {
      await fs.promises.mkdir(target, { recursive: true });
      entry.resume();
      continue;
    }
    if (!relative) throw new UnsafeArchiveError(`archive entry ${JSON.stringify(name)} is a file without a name`);
    spend(budget, size, name);
    await writeEntry(entry as unknown as Readable, target, mode);
  }
  if (failure) throw failure;
}

async function extractZip(file: string, dest: string, budget: { left: number }): Promise<void> {
  const zip = await yauzl.openPromise(file, { lazyEntries: true, autoClose: false, validateEntrySizes: true, strictFileNames: false });
  try {
    for await (const entry of zip.eachEntry()) {
      const unixMode = entry.externalFileAttributes >>> 16;
      const madeOnUnix = entry.versionMadeBy >>> 8 === 3;
      const fileType = unixMode & 0o170000;
      const isDirectory = entry.fileName.endsWith('/');
      const kind: EntryType = madeOnUnix && fileType === 0o120000 ? 'symlink' : isDirectory ? 'directory' : madeOnUnix && fileType !== 0 && fileType !== 0o100000 && fileType !== 0o040000 ? 'other' : 'file';
      checkEntryType(entry.fileName, kind);
      const relative = safeEntryPath(entry.fileName);
      const target = relative ? path.join(dest, ...relative.split('/')) : dest;
      if (kind === 'directory') {
        await fs.promises.mkdir(target, { recursive: true });
        continue;
      }
      if (!relative) throw new UnsafeArchiveError(`archive entry ${JSON.stringify(entry.fileName)} is a file without a name`);
      spend(budget, entry.uncompressedSize, entry.fileName);
      await writeEntry(await zip.openReadStreamPromise(entry), target, madeOnUnix ? unixMode & 0o777 : undefined);
    }
  } finally {
    zip.close();
  }
}

function spend(budget: { left: number }, bytes: number, name: string): void {
  budget.left -= bytes;
  if (budget.left < 0) throw new UnsafeArchiveError(`the archive unpacks to more than ${MAX_EXTRACTED_BYTES / 1024 ** 3} GB (at ${JSON.stringify(name)})`);
}

async function writeEntry(source: Readable, target: string, mode: number | undefined): Promise<void> {
  await fs.promises.mkdir(path.dirname(target), { recursive: true });
  // The owner can always read and write what was unpacked; execute bits come from the archive.
  const out: Writable = fs.createWriteStream(target, { mode: ((mode ?? 0o644) & 0o777) | 0o600 });
  await pipeline(source, out);
}
