import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

/** Debian's chromium (scripts/setup.sh installs it); playwright-core drives it, no browser is downloaded. */
export const CHROMIUM = '/usr/bin/chromium';

/** Generous waits: the speech worker may run far behind real time on a busy machine. */
export const SLOW = 240_000;

/** `skip` for a browser suite: false when chromium is there, else why not. */
export function chromiumSkip(): string | false {
  return existsSync(CHROMIUM) ? false : `${CHROMIUM} is missing (scripts/setup.sh installs Debian's chromium)`;
}

/** Headless chromium whose microphone plays `wav` (16-bit PCM; chromium loops it), permission granted. */
export function launchWithMicrophone(wav: string): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream', `--use-file-for-fake-audio-capture=${wav}`,
      '--autoplay-policy=no-user-gesture-required', '--no-sandbox',
    ],
  });
}
