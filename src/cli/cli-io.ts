/** What a CLI command may touch of the outside world; tests pass their own. */
export interface CliIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly env: NodeJS.ProcessEnv;
  readonly cwd: string;
  /** Resolves when the process is asked to stop (SIGINT/SIGTERM). */
  readonly stopSignal: Promise<string>;
  /** Calls back on every request to reload the settings (SIGHUP); returns a function that stops listening. */
  readonly onReload?: (listener: () => void) => () => void;
  /** Lines typed by the user (chat); undefined when there is no input. */
  readonly stdin?: NodeJS.ReadableStream;
  readonly isTty?: boolean;
  /** Calls back on an unhandled rejection or uncaught exception; returns a function that stops listening. */
  readonly onCrash?: (listener: (kind: 'unhandledRejection' | 'uncaughtException', error: unknown) => void) => () => void;
  /** Ends the process now (after a crash). */
  readonly exit?: (code: number) => void;
}

/** A mistake in how the command was called: one line, then usage, exit 2. */
export class UsageError extends Error {
  constructor(
    message: string,
    readonly usage: string,
  ) {
    super(message);
    this.name = 'UsageError';
  }
}

export function processIo(): CliIo {
  const stopSignal = new Promise<string>((resolve) => {
    const onSignal = (signal: string) => resolve(signal);
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
  });
  return {
    stdout: (text) => void process.stdout.write(text),
    stderr: (text) => void process.stderr.write(text),
    env: process.env,
    cwd: process.cwd(),
    stopSignal,
    onReload: (listener) => {
      process.on('SIGHUP', listener);
      return () => void process.off('SIGHUP', listener);
    },
    stdin: process.stdin,
    isTty: Boolean(process.stdout.isTTY),
    onCrash: (listener) => {
      const onRejection = (reason: unknown) => listener('unhandledRejection', reason);
      const onException = (error: unknown) => listener('uncaughtException', error);
      process.on('unhandledRejection', onRejection);
      process.on('uncaughtException', onException);
      return () => {
        process.off('unhandledRejection', onRejection);
        process.off('uncaughtException', onException);
      };
    },
    exit: (code) => process.exit(code),
  };
}
