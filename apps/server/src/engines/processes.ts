// Engine processes this server started are recorded on disk, one file per process named by its PID
// and holding its start time, so that the next server on the same data folder can end the ones a
// crashed server left running, and only those: PIDs are reused, so a record counts only while the
// process with that PID is the one that started at the recorded time.
import fs from 'node:fs';
import path from 'node:path';

/** A process's /proc/<pid>/stat fields from the third (state) on: the name before them may hold spaces. */
function statFields(pid: number): string[] | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

/** When the process started (clock ticks after boot); undefined when it is gone or a zombie. */
export function processStartTime(pid: number): number | undefined {
  const fields = statFields(pid);
  if (!fields || fields[0] === 'Z') return undefined;
  return Number(fields[19]);
}

/** Every process below `pid` (children, their children, …). */
function descendantsOf(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const parent = Number(statFields(Number(name))?.[1]);
    children.set(parent, [...(children.get(parent) ?? []), Number(name)]);
  }
  const found: number[] = [];
  for (let queue = [pid]; queue.length; ) {
    const below = children.get(queue.shift()!) ?? [];
    found.push(...below);
    queue.push(...below);
  }
  return found;
}

/** Kills `pid` and every process below it, if `pid` is still the process that started at `startTime`. */
export function killProcessTree(pid: number, startTime: number): boolean {
  if (processStartTime(pid) !== startTime) return false;
  for (const p of [pid, ...descendantsOf(pid)]) {
    try {
      process.kill(p, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  return true;
}

let recordsDir: string | undefined;

/** Records this process's engines in `dir` from now on (one server per process: main.ts). */
export function recordEnginesIn(dir: string) {
  fs.mkdirSync(dir, { recursive: true });
  recordsDir = dir;
}

/** Records a running engine; the function returned forgets it once it has ended. */
export function recordEngine(pid: number | undefined): () => void {
  const startTime = pid === undefined ? undefined : processStartTime(pid);
  if (!recordsDir || startTime === undefined) return () => {};
  const file = path.join(recordsDir, String(pid));
  fs.writeFileSync(file, String(startTime));
  return () => fs.rmSync(file, { force: true });
}

/** Kills the engines recorded in `dir` that still run (their process trees); returns how many. */
export function killRecordedEngines(dir: string): number {
  let killed = 0;
  const records = fs.existsSync(dir) ? fs.readdirSync(dir, { withFileTypes: true }) : [];
  for (const name of records) {
    if (!name.isFile() || !/^\d+$/.test(name.name)) continue;
    const startTime = Number(fs.readFileSync(path.join(dir, name.name), 'utf8'));
    if (killProcessTree(Number(name.name), startTime)) killed++;
  }
  return killed;
}
