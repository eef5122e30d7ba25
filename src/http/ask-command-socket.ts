import { realpath } from 'node:fs/promises';
import { request } from 'node:http';

/** What the running bridge answered, or undefined when no bridge listens on the socket. */
export async function askCommandSocket(
  path: string,
  text: string,
  timeoutMs = 60_000,
): Promise<{ exitCode: number; output: string } | undefined> {
  // A deep data directory has a link to the socket (see command-socket): connect to what it points at.
  const socketPath = await realpath(path).catch(() => undefined);
  if (socketPath === undefined) return undefined;
  return ask(socketPath, text, timeoutMs);
}

function ask(socketPath: string, text: string, timeoutMs: number): Promise<{ exitCode: number; output: string } | undefined> {
  const body = JSON.stringify({ text });
  return new Promise((resolve, reject) => {
    const req = request(
      {
        socketPath,
        path: '/commands',
        method: 'POST',
        headers: { host: 'localhost', 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
        signal: AbortSignal.timeout(timeoutMs),
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', reject);
        res.on('end', () => {
          let answer: { exitCode?: unknown; output?: unknown; error?: unknown } = {};
          try {
            answer = JSON.parse(Buffer.concat(chunks).toString('utf8')) as typeof answer;
          } catch {
            // answered below from the status
          }
          if (typeof answer.exitCode === 'number') resolve({ exitCode: answer.exitCode, output: String(answer.output ?? '') });
          else resolve({ exitCode: 1, output: typeof answer.error === 'string' ? answer.error : `the bridge answered ${res.statusCode}` });
        });
      },
    );
    req.on('error', (err: NodeJS.ErrnoException) => {
      // No socket file, or one a killed bridge left behind: nobody is running.
      if (err.code === 'ENOENT' || err.code === 'ECONNREFUSED') resolve(undefined);
      else if (err.code === 'EACCES') {
        resolve({
          exitCode: 1,
          output: `The running bridge's command socket ${socketPath} is not yours: run this as the user the bridge runs as.`,
        });
      } else reject(err);
    });
    req.end(body);
  });
}
