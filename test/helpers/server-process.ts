import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

/** The compiled server entry point (tests run from dist/test/…). */
const MAIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../server/main.js');

export interface ServerProcess {
  child: ChildProcess;
  httpUrl: string;
  wsUrl: string;
}

/**
 * How long a server may take to listen. Start-up loads the models (VAD, recogniser, embedder); on a
 * machine busy with other jobs that took over 20 s, so this only catches a server that never starts.
 */
const START_TIMEOUT_MS = 120_000;

/** Start `server/main.js` as a real process on a random port and wait until it listens. */
export async function startServerProcess(env: Record<string, string>): Promise<ServerProcess> {
  const child = spawn(process.execPath, [MAIN], {
    env: { ...process.env, PORT: '0', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => {
    stderr += d.toString();
  });
  const logged: string[] = [];
  const address = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`server did not start within ${START_TIMEOUT_MS} ms; stderr: ${stderr}; last log lines:\n${logged.slice(-10).join('\n')}`));
    }, START_TIMEOUT_MS);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}: ${stderr}`));
    });
    createInterface({ input: child.stdout! }).on('line', (line) => {
      logged.push(line);
      if (logged.length > 50) logged.shift();
      try {
        const entry = JSON.parse(line) as { msg?: string; address?: string };
        if (entry.msg === 'parley listening' && entry.address) {
          clearTimeout(timer);
          resolve(entry.address);
        }
      } catch {
        // not a log line
      }
    });
  });
  return { child, httpUrl: address, wsUrl: address.replace('http', 'ws') };
}

/** SIGKILL the process and wait until it is gone. */
export async function killHard(server: ServerProcess): Promise<void> {
  const gone = new Promise((resolve) => server.child.once('exit', resolve));
  server.child.kill('SIGKILL');
  await gone;
}
