// Builds the archives the registry tests serve: real .tar.gz, .tar.bz2 and .zip files, including
// malicious ones (entries with "..", absolute paths, links) that a careless extractor would follow.
import { execFileSync } from 'node:child_process';
import * as zlib from 'node:zlib';
import * as tar from 'tar-stream';

export interface ArchiveEntry {
  name: string;
  /** File content; omitted for folders and links. */
  content?: string | Buffer;
  type?: 'file' | 'directory' | 'symlink' | 'link';
  /** For links. */
  target?: string;
  mode?: number;
}

export async function tarball(entries: ArchiveEntry[]): Promise<Buffer> {
  const pack = tar.pack();
  const chunks: Buffer[] = [];
  pack.on('data', (c) => chunks.push(c as Buffer));
  const ended = new Promise<void>((resolve, reject) => {
    pack.on('end', () => resolve());
    pack.on('error', reject);
  });
  for (const e of entries) {
    const type = e.type ?? 'file';
    const header = { name: e.name, type, mode: e.mode ?? (type === 'directory' ? 0o755 : 0o644), ...(e.target ? { linkname: e.target } : {}) };
    await new Promise<void>((resolve, reject) => {
      if (type === 'file') pack.entry(header, Buffer.from(e.content ?? ''), (err) => (err ? reject(err) : resolve()));
      else pack.entry(header, (err) => (err ? reject(err) : resolve()));
    });
  }
  pack.finalize();
  await ended;
  return Buffer.concat(chunks);
}

export async function tarGz(entries: ArchiveEntry[]): Promise<Buffer> {
  return zlib.gzipSync(await tarball(entries));
}

/** bzip2 has no Node built-in; the system's bzip2 compresses (tests only). */
export async function tarBz2(entries: ArchiveEntry[]): Promise<Buffer> {
  return execFileSync('bzip2', ['-c'], { input: await tarball(entries) });
}

/**
 * A zip written by hand (deflated entries, Unix attributes so modes and links are recorded as
 * Info-ZIP does), because a test must be able to write entries no zip tool would.
 */
export function zip(entries: ArchiveEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const type = e.type ?? 'file';
    const name = Buffer.from(type === 'directory' && !e.name.endsWith('/') ? `${e.name}/` : e.name, 'utf8');
    const raw = type === 'symlink' ? Buffer.from(e.target ?? '') : Buffer.from(e.content ?? '');
    const data = zlib.deflateRawSync(raw);
    const crc = zlib.crc32(raw);
    const fileType = type === 'directory' ? 0o040000 : type === 'symlink' ? 0o120000 : 0o100000;
    const mode = fileType | (e.mode ?? (type === 'directory' ? 0o755 : 0o644));
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6); // UTF-8 names
    local.writeUInt16LE(8, 8); // deflate
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(raw.length, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE((3 << 8) | 20, 4); // made by Unix
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(raw.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE((mode << 16) >>> 0, 38);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, data);
    centrals.push(central, name);
    offset += local.length + name.length + data.length;
  }
  const centralSize = centrals.reduce((n, b) => n + b.length, 0);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(centralSize, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, ...centrals, end]);
}
