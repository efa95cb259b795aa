import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ErrorCode, QuireError } from '@quire/contracts';
import { processStartTime } from './processes.js';
import { boundFor, EngineTimeout, JOB_BOUNDS, runEngine } from './run.js';

describe('runEngine', () => {
  it('returns exit code and output', async () => {
    const res = await runEngine('sh', ['-c', 'echo one; echo two >&2; exit 3'], { timeoutMs: 5000, memoryMb: 256 });
    expect(res).toEqual({ exitCode: 3, signal: null, stdout: 'one\n', stderr: 'two\n' });
  });

  it('says which signal ended an engine that crashed', async () => {
    const res = await runEngine('sh', ['-c', 'kill -SEGV $$'], { timeoutMs: 5000, memoryMb: 256 });
    expect(res).toMatchObject({ exitCode: 137, signal: 'SIGSEGV' });
  });

  it('kills an engine at its time limit', async () => {
    const started = Date.now();
    await expect(runEngine('sleep', ['30'], { timeoutMs: 200, memoryMb: 256 })).rejects.toBeInstanceOf(EngineTimeout);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it("stops an engine when its task's deadline passes, even one already passed", async () => {
    await expect(runEngine('sleep', ['30'], { timeoutMs: 60_000, memoryMb: 256, signal: AbortSignal.timeout(200) })).rejects.toBeInstanceOf(
      EngineTimeout,
    );
    await expect(runEngine('sleep', ['30'], { timeoutMs: 60_000, memoryMb: 256, signal: AbortSignal.abort() })).rejects.toBeInstanceOf(
      EngineTimeout,
    );
  });

  it('ends every process the engine started when it is stopped, and starts nothing once its task is stopped', async () => {
    const pidFile = path.join(os.tmpdir(), `quire-run-${process.pid}-${Date.now()}`);
    const task = new AbortController();
    // A shell whose child outlives it unless their process group is ended with it.
    const engine = runEngine('sh', ['-c', `sleep 30 >/dev/null 2>&1 & echo $! > ${pidFile}; wait`], {
      timeoutMs: 60_000,
      memoryMb: 256,
      signal: task.signal,
    });
    while (!fs.existsSync(pidFile) || fs.readFileSync(pidFile, 'utf8').trim() === '') await new Promise((r) => setTimeout(r, 20));
    const sleeper = Number(fs.readFileSync(pidFile, 'utf8'));
    fs.rmSync(pidFile);
    task.abort();
    await expect(engine).rejects.toBeInstanceOf(EngineTimeout);
    // SIGKILL is sent at once; the kernel may take a moment to end the process.
    for (let waited = 0; processStartTime(sleeper) !== undefined && waited < 5000; waited += 20)
      await new Promise((r) => setTimeout(r, 20));
    expect(processStartTime(sleeper)).toBeUndefined();
    const marker = path.join(os.tmpdir(), `quire-run-started-${process.pid}-${Date.now()}`);
    await expect(runEngine('touch', [marker], { timeoutMs: 5000, memoryMb: 256, signal: task.signal })).rejects.toBeInstanceOf(
      EngineTimeout,
    );
    expect(fs.existsSync(marker)).toBe(false);
  });

  it('bounds memory: an engine asking for more than its bound fails instead of getting it', async () => {
    const grab = ['-c', 'x = bytearray(300 * 1024 * 1024); print("got it")'];
    const bounded = await runEngine('python3', grab, { timeoutMs: 60_000, memoryMb: 100 });
    expect(bounded.exitCode).not.toBe(0);
    expect(bounded.stdout).not.toContain('got it');
    const unbounded = await runEngine('python3', grab, { timeoutMs: 60_000, memoryMb: 2048 });
    expect(unbounded.stdout).toContain('got it');
  });

  it('can bound the data segment instead, for WebAssembly engines that reserve far more address space than they use', async () => {
    const grab = ['-c', 'x = bytearray(300 * 1024 * 1024); print("got it")'];
    const bounded = await runEngine('python3', grab, { timeoutMs: 60_000, memoryMb: 100, memoryBound: 'data' });
    expect(bounded.exitCode).not.toBe(0);
    expect(bounded.stdout).not.toContain('got it');
    // MuPDF's WebAssembly cannot even start under an address-space bound of 2 GB; under a data bound it can.
    const wasm = ['--input-type=module', '-e', 'const m = await import("mupdf"); console.log(new m.PDFDocument().countPages())'];
    expect((await runEngine(process.execPath, wasm, { timeoutMs: 60_000, memoryMb: 2048 })).exitCode).not.toBe(0);
    expect((await runEngine(process.execPath, wasm, { timeoutMs: 60_000, memoryMb: 2048, memoryBound: 'data' })).stdout.trim()).toBe('0');
  });

  it('fails an engine killed from outside as a task to try again (3125); a crash stays an exit code', async () => {
    const killed = runEngine('sh', ['-c', 'kill -KILL $$'], { timeoutMs: 5000, memoryMb: 256 });
    await expect(killed).rejects.toBeInstanceOf(QuireError);
    await expect(killed).rejects.toMatchObject({ code: ErrorCode.TaskFailed });
    expect((await runEngine('sh', ['-c', 'kill -SEGV $$'], { timeoutMs: 5000, memoryMb: 256 })).exitCode).toBe(137);
  });

  it('bounds each kind of job by its own memory need, never above the configured bound', async () => {
    expect(boundFor('text', { timeoutMs: 1000, memoryMb: 2048 })).toEqual({ timeoutMs: 1000, memoryMb: JOB_BOUNDS.text.memoryMb });
    expect(boundFor('render', { timeoutMs: 1000, memoryMb: 800 }).memoryMb).toBe(800);
    // Under the text bound, an engine asking for more than it fails.
    const grab = ['-c', `x = bytearray(${JOB_BOUNDS.text.memoryMb + 100} * 1024 * 1024); print("got it")`];
    const res = await runEngine('python3', grab, boundFor('text', { timeoutMs: 20_000, memoryMb: 2048 }));
    expect(res.stdout).not.toContain('got it');
  }, 30_000);

  describe('time bounds', () => {
    const configured = { timeoutMs: 120_000, memoryMb: 2048 };
    const time = (job: Parameters<typeof boundFor>[0], pages?: number) => boundFor(job, configured, pages).timeoutMs;

    it('an inspection takes seconds to tens of seconds whatever the document', () => {
      expect(time('inspect')).toBe(JOB_BOUNDS.inspect.baseMs);
      expect(time('inspect', 2000)).toBe(JOB_BOUNDS.inspect.baseMs);
      expect(JOB_BOUNDS.inspect.baseMs).toBeGreaterThanOrEqual(5_000);
      expect(JOB_BOUNDS.inspect.baseMs).toBeLessThanOrEqual(30_000);
    });

    it('a render or a text extraction gets a base and an allowance per page', () => {
      expect(time('render', 1)).toBe(JOB_BOUNDS.render.baseMs + JOB_BOUNDS.render.perPageMs);
      expect(time('text', 3)).toBe(JOB_BOUNDS.text.baseMs + 3 * JOB_BOUNDS.text.perPageMs);
      expect(time('text', 3)).toBeLessThan(time('text', 30));
      // One page's render is stopped well before the configured two minutes.
      expect(time('render', 1)).toBeLessThan(configured.timeoutMs);
    });

    it('the configured limit stays the ceiling, and is what a job of unknown pages gets', () => {
      expect(time('render', 2000)).toBe(configured.timeoutMs);
      expect(time('rewrite', 100_000)).toBe(configured.timeoutMs);
      expect(time('rewrite')).toBe(configured.timeoutMs);
      expect(time('document')).toBe(configured.timeoutMs);
      expect(boundFor('inspect', { timeoutMs: 3000, memoryMb: 2048 }).timeoutMs).toBe(3000);
    });

    it('keeps whatever else the limits carry (the task deadline)', () => {
      const signal = AbortSignal.timeout(60_000);
      expect(boundFor('rewrite', { ...configured, signal }, 5).signal).toBe(signal);
    });
  });

  it('streams stdout lines for progress', async () => {
    const lines: string[] = [];
    await runEngine('sh', ['-c', 'echo 10%; echo 50%; echo 100%'], { timeoutMs: 5000, memoryMb: 256, onLine: (l) => lines.push(l) });
    expect(lines).toEqual(['10%', '50%', '100%']);
  });
});
