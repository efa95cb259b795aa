import { describe, expect, it } from 'vitest';
import { ErrorCode, QuireError } from '@quire/contracts';
import { boundFor, EngineTimeout, JOB_MEMORY_MB, runEngine } from './run.js';

describe('runEngine', () => {
  it('returns exit code and output', async () => {
    const res = await runEngine('sh', ['-c', 'echo one; echo two >&2; exit 3'], { timeoutMs: 5000, memoryMb: 256 });
    expect(res).toEqual({ exitCode: 3, stdout: 'one\n', stderr: 'two\n' });
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

  it('bounds each kind of job by its own need, never above the configured bound', async () => {
    expect(boundFor('text', { timeoutMs: 1000, memoryMb: 2048 })).toEqual({ timeoutMs: 1000, memoryMb: JOB_MEMORY_MB.text });
    expect(boundFor('render', { timeoutMs: 1000, memoryMb: 800 }).memoryMb).toBe(800);
    // Under the text bound, an engine asking for more than it fails.
    const grab = ['-c', `x = bytearray(${JOB_MEMORY_MB.text + 100} * 1024 * 1024); print("got it")`];
    const res = await runEngine('python3', grab, boundFor('text', { timeoutMs: 20_000, memoryMb: 2048 }));
    expect(res.stdout).not.toContain('got it');
  }, 30_000);

  it('streams stdout lines for progress', async () => {
    const lines: string[] = [];
    await runEngine('sh', ['-c', 'echo 10%; echo 50%; echo 100%'], { timeoutMs: 5000, memoryMb: 256, onLine: (l) => lines.push(l) });
    expect(lines).toEqual(['10%', '50%', '100%']);
  });
});
