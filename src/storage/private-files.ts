import { chmod, mkdir } from 'node:fs/promises';

/**
 * Customer data is for the bridge's own user only: directories 0700, files 0600. Modes passed at
 * creation are cut by the umask, so they are set again explicitly (chmod ignores the umask).
 */
export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/** Creates the directory if missing and makes it private, even one an older version left 0755. */
export async function ensurePrivateDir(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  await chmod(dir, PRIVATE_DIR_MODE);
}

export function makePrivate(path: string): Promise<void> {
  return chmod(path, PRIVATE_FILE_MODE);
}
