// The memory the engines of a test's server reach, read from /proc: the engines run as children
// of the server, which runs in the test's own process.
import fs from 'node:fs';

/** The highest resident memory (VmHWM) any process below this one reached, polled every 10 ms. */
export class EngineMemoryWatch {
  peakKb = 0;
  peakCommand = '';
  private timer = setInterval(() => this.sample(), 10);

  private descendants(pid: number): number[] {
    const children: number[] = [];
    for (const task of safeList(`/proc/${pid}/task`)) {
      const list = safeRead(`/proc/${pid}/task/${task}/children`).trim();
      if (list) children.push(...list.split(/\s+/).map(Number));
    }
    return children.flatMap((child) => [child, ...this.descendants(child)]);
  }

  private sample() {
    for (const pid of this.descendants(process.pid)) {
      const status = safeRead(`/proc/${pid}/status`);
      const kb = Number(status.match(/^VmHWM:\s+(\d+) kB/m)?.[1] ?? 0);
      if (kb > this.peakKb) [this.peakKb, this.peakCommand] = [kb, status.match(/^Name:\s+(.*)$/m)?.[1] ?? ''];
    }
  }

  stop() {
    clearInterval(this.timer);
  }
}

const safeRead = (f: string) => {
  try {
    return fs.readFileSync(f, 'utf8');
  } catch {
    return '';
  }
};
const safeList = (d: string) => {
  try {
    return fs.readdirSync(d);
  } catch {
    return [];
  }
};
