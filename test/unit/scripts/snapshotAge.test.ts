import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const repo = path.resolve(__dirname, '..', '..', '..');
const script = path.join(repo, 'scripts', 'snapshot-age.mjs');

describe('the registry snapshot age check (npm run package)', () => {
  let tmp: string;
  beforeEach(() => (tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-snapshot-age-'))));
  afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

  /** Runs the check on a snapshot file with this content, on `today`; its exit code and stderr. */
  const check = (content: string, today: string): { status: number | null; stderr: string } => {
    const file = path.join(tmp, 'registry-snapshot.json');
    fs.writeFileSync(file, content);
    const run = spawnSync(process.execPath, [script, '--snapshot', file, '--today', today], { cwd: tmp, encoding: 'utf8' });
    return { status: run.status, stderr: run.stderr };
  };
  const dated = (date: unknown) => JSON.stringify({ version: '1.0.0', snapshot: { date, source: 'x' }, agents: [] });

  it('says nothing up to 60 days, counting calendar days across months and years', () => {
    assert.deepEqual(check(dated('2026-02-07'), '2026-02-07'), { status: 0, stderr: '' });
    assert.deepEqual(check(dated('2026-02-07'), '2026-04-08'), { status: 0, stderr: '' }, '60 days');
    assert.deepEqual(check(dated('2026-12-15'), '2027-02-13'), { status: 0, stderr: '' }, '60 days over a new year');
  });

  it('warns past 60 days in one sentence naming the file, its date, its age and the script to run, and never fails', () => {
    const { status, stderr } = check(dated('2026-02-07'), '2026-04-09');
    assert.equal(status, 0);
    assert.equal(stderr.trim().split('\n').length, 1);
    assert.match(stderr, /^warning: registry-snapshot\.json, the ACP Registry catalogue shown offline, is of 2026-02-07, 61 days ago \(more than 60\)/);
    assert.match(stderr, /node scripts\/registry-snapshot\.mjs /);
    assert.match(check(dated('2026-02-07'), '2026-12-01').stderr, /297 days ago/);
  });

  it('warns, without failing, when the date cannot be read or the file is not JSON', () => {
    for (const content of [dated('last week'), dated(undefined), '{"agents":[]}']) {
      const { status, stderr } = check(content, '2026-12-01');
      assert.equal(status, 0);
      assert.match(stderr, /^warning: registry-snapshot\.json has no readable date/);
    }
    const broken = check('<html>', '2026-12-01');
    assert.equal(broken.status, 0);
    assert.match(broken.stderr, /^warning: the registry snapshot's age could not be checked: .*JSON/);
  });
});
