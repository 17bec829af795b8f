import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A headless Chromium driven over the DevTools protocol, for checks only a browser can make (a page
 * renders and works under its Content-Security-Policy). `CHROMIUM` names the binary; otherwise the
 * usual names are looked up on the PATH. Tests that need it are skipped where there is none.
 */
export function findChromium(): string | null {
  const candidates = process.env['CHROMIUM'] ? [process.env['CHROMIUM']] : ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable'];
  for (const name of candidates) {
    if (spawnSync(name, ['--version'], { stdio: 'ignore', timeout: 10_000 }).status === 0) return name;
  }
  return null;
}

export interface PageReport {
  /** `securitypolicyviolation` events: directive, blocked URI and sample. */
  readonly violations: string[];
  /** Browser log entries (CSP reports, failed loads...) and console errors and warnings. */
  readonly errors: string[];
  /** Uncaught exceptions in the page. */
  readonly exceptions: string[];
  /** Requests that failed (blocked by CSP, refused...). */
  readonly failedRequests: string[];
}

interface Message {
  id?: number;
  method?: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  params?: any;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  result?: any;
  error?: { message: string };
}

export class HeadlessChromium {
  private nextId = 0;
  private readonly pending = new Map<number, (message: Message) => void>();
  private readonly events: Message[] = [];

  private constructor(
    private readonly process: ChildProcess,
    private readonly socket: WebSocket,
    private readonly profile: string,
  ) {
    socket.addEventListener('message', (event) => {
      const message = JSON.parse(String(event.data)) as Message;
      if (message.id !== undefined) {
        this.pending.get(message.id)?.(message);
        this.pending.delete(message.id);
      } else {
        this.events.push(message);
      }
    });
  }

  static async launch(binary: string): Promise<HeadlessChromium> {
    const profile = mkdtempSync(join(tmpdir(), 'rc-chromium-'));
    const child = spawn(
      binary,
      [
        '--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync',
        '--remote-debugging-port=0', `--user-data-dir=${profile}`, 'about:blank',
      ],
      // Its own process group, so that closing it ends its helper processes too.
      { stdio: ['ignore', 'ignore', 'pipe'], detached: true },
    );
    const browserUrl = await new Promise<string>((resolve, reject) => {
      let output = '';
      const timer = setTimeout(() => reject(new Error(`Chromium did not start: ${output}`)), 30_000);
      child.stderr!.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        const match = /DevTools listening on (ws:\S+)/.exec(output);
        if (match) {
          clearTimeout(timer);
          resolve(match[1]!);
        }
      });
      child.on('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`Chromium exited (${code}): ${output}`));
      });
    });
    const list = (await (await fetch(new URL('/json/list', browserUrl.replace(/^ws:/, 'http:')))).json()) as { type: string; webSocketDebuggerUrl: string }[];
    const page = list.find((target) => target.type === 'page');
    if (!page) throw new Error('Chromium has no page');
    const socket = new WebSocket(page.webSocketDebuggerUrl);
    await new Promise((resolve, reject) => {
      socket.addEventListener('open', resolve, { once: true });
      socket.addEventListener('error', reject, { once: true });
    });
    const browser = new HeadlessChromium(child, socket, profile);
    for (const domain of ['Runtime', 'Log', 'Page', 'Network']) await browser.send(`${domain}.enable`);
    await browser.send('Page.addScriptToEvaluateOnNewDocument', {
      source:
        'window.__violations = [];' +
        'document.addEventListener("securitypolicyviolation", (e) => window.__violations.push(`${e.violatedDirective} ${e.blockedURI} ${e.sample || ""}`.trim()));',
    });
    return browser;
  }

  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  send(method: string, params: object = {}): Promise<any> {
    const id = ++this.nextId;
    return new Promise((resolve, reject) => {
      this.pending.set(id, (message) => (message.error ? reject(new Error(`${method}: ${message.error.message}`)) : resolve(message.result)));
      this.socket.send(JSON.stringify({ id, method, params }));
    });
  }

  /** Evaluates an expression (awaiting a promise) in the page; returns its JSON value. */
  async evaluate<T>(expression: string): Promise<T> {
    const { result, exceptionDetails } = await this.send('Runtime.evaluate', { expression, returnByValue: true, awaitPromise: true });
    if (exceptionDetails) throw new Error(`in the page: ${exceptionDetails.exception?.description ?? exceptionDetails.text}`);
    return result.value as T;
  }

  /** Opens `url` and waits until `ready` (an expression) is truthy in the page. */
  async open(url: string, ready: string, timeoutMs = 30_000): Promise<void> {
    await this.send('Page.navigate', { url });
    await this.waitFor(ready, timeoutMs);
  }

  async waitFor(condition: string, timeoutMs = 30_000): Promise<void> {
    for (const deadline = Date.now() + timeoutMs; ; ) {
      if (await this.evaluate<boolean>(`!!(${condition})`).catch(() => false)) return;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${condition}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /** What went wrong in the page so far. */
  async report(): Promise<PageReport> {
    const of = (method: string) => this.events.filter((event) => event.method === method).map((event) => event.params);
    return {
      violations: (await this.evaluate<string[] | undefined>('window.__violations')) ?? [],
      errors: [
        ...of('Log.entryAdded').map((p) => `${p.entry.level} ${p.entry.source}: ${p.entry.text}`),
        ...of('Runtime.consoleAPICalled')
          .filter((p) => p.type === 'error' || p.type === 'warning')
          .map((p) => `console.${p.type}: ${(p.args as { value?: unknown; description?: string }[]).map((a) => a.value ?? a.description).join(' ')}`),
      ],
      exceptions: of('Runtime.exceptionThrown').map((p) => p.exceptionDetails.exception?.description ?? p.exceptionDetails.text),
      failedRequests: of('Network.loadingFailed').map((p) => `${p.errorText} ${p.blockedReason ?? ''}`.trim()),
    };
  }

  async close(): Promise<void> {
    this.socket.close();
    const group = -this.process.pid!;
    const exited = this.process.exitCode !== null ? Promise.resolve() : new Promise((resolve) => this.process.once('exit', resolve));
    signal(group, 'SIGTERM');
    await exited;
    // Helper processes (renderers, crash handler) outlive the browser for a moment and write to
    // the profile: wait until the whole group is gone, killing what lingers, before removing it.
    // (Bounded: an orphan that no init reaps stays a zombie, which holds nothing open.)
    for (const start = Date.now(); signal(group, 0) && Date.now() - start < 15_000; ) {
      if (Date.now() - start > 5_000) signal(group, 'SIGKILL');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    rmSync(this.profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
  }
}

/** Sends `sig` to a process group; false once no process of it is left. */
function signal(group: number, sig: NodeJS.Signals | 0): boolean {
  try {
    process.kill(group, sig);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return false;
    throw error;
  }
}
