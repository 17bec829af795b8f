/**
 * How many pixels renders may decode at once: a render of `pixels` starts when the renders running
 * hold no more than `budget - pixels`, or when none is running (an image larger than the budget
 * then runs alone). Waiting renders start in the order they asked. What a render holds in memory
 * grows with the pixels it decodes (about 3 bytes a pixel, and its encoder's buffers), so the
 * process's memory for images is bounded by the budget rather than by how many run at once.
 */
export class PixelBudget {
  private inFlight = 0;
  private running = 0;
  private readonly waiting: { readonly pixels: number; readonly start: () => void }[] = [];

  constructor(readonly budget: number) {
    if (!(budget > 0)) throw new Error('PixelBudget: the budget must be positive');
  }

  /** Waits for room for `pixels`, then holds it: call the returned function once to give it back. */
  async hold(pixels: number): Promise<() => void> {
    const weight = Math.max(0, pixels);
    if (!this.waiting.length && this.fits(weight)) this.take(weight);
    else await new Promise<void>((start) => this.waiting.push({ pixels: weight, start }));
    let given = false;
    return () => {
      if (given) return;
      given = true;
      this.inFlight -= weight;
      this.running--;
      this.startWaiting();
    };
  }

  /** Pixels held by the renders running now. */
  get held(): number {
    return this.inFlight;
  }

  private fits(pixels: number): boolean {
    return this.running === 0 || this.inFlight + pixels <= this.budget;
  }

  private take(pixels: number): void {
    this.inFlight += pixels;
    this.running++;
  }

  private startWaiting(): void {
    while (this.waiting.length && this.fits(this.waiting[0]!.pixels)) {
      const next = this.waiting.shift()!;
      this.take(next.pixels);
      next.start();
    }
  }
}
