import * as crypto from 'node:crypto';
import * as fs from 'node:fs';

export type CopyResult = { ok: true; sha256: string } | { ok: false; reason: string };

/**
 * Copies a file byte for byte, started now: the kernel copies (`copy_file_range`, or a reflink
 * where the file system has them) on libuv's thread pool, so the extension host does not wait for
 * it, and it starts at once, as a synchronous copy would. Resolves with whether the copy is the
 * file as it was when the copy started (it is not when the file changed meanwhile: the agent wrote
 * while it was being copied). Throws when the file cannot even be looked at.
 */
export function copyChecked(source: string, target: string): Promise<CopyResult> {
  const started = fs.statSync(source);
  return new Promise<CopyResult>((resolve) => {
    fs.copyFile(source, target, fs.constants.COPYFILE_FICLONE, (error) => {
      if (error) return resolve({ ok: false, reason: `it could not be copied (${error.message})` });
      void (async () => {
        try {
          const now = await fs.promises.stat(source);
          if (now.mtimeMs !== started.mtimeMs || now.size !== started.size) return resolve({ ok: false, reason: 'it changed while it was being copied' });
          const copied = await fingerprintFile(target);
          if (copied.kind !== 'file' || copied.size !== started.size) return resolve({ ok: false, reason: 'its copy is not whole' });
          resolve({ ok: true, sha256: copied.sha256 });
        } catch (error) {
          resolve({ ok: false, reason: `it could not be copied (${(error as Error).message})` });
        }
      })();
    });
  });
}

/** Size and SHA-256 of a file, streamed (1 MB slices: the extension host hashes ~2 ms at a time), or absent. */
export async function fingerprintFile(file: string): Promise<{ kind: 'absent' } | { kind: 'file'; size: number; sha256: string }> {
  let before: fs.Stats;
  try {
    before = await fs.promises.stat(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'absent' };
    throw error;
  }
  const hash = crypto.createHash('sha256');
  let size = 0;
  for await (const chunk of fs.createReadStream(file, { highWaterMark: 1024 * 1024 })) {
    hash.update(chunk as Buffer);
    size += (chunk as Buffer).length;
  }
  const after = await fs.promises.stat(file);
  if (after.mtimeMs !== before.mtimeMs || after.size !== size) throw new Error('it changed while it was being read');
  return { kind: 'file', size, sha256: hash.digest('hex') };
}
