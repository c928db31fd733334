/** A one-line counter: rewritten in place on a terminal, a line per tenth otherwise. */
export class Progress {
  private readonly tty = Boolean(process.stderr.isTTY);
  private readonly started = Date.now();
  private lastTenth = -1;

  constructor(
    private readonly label: string,
    private readonly total: number,
    private readonly showRate = true,
  ) {}

  update(done: number): void {
    const rate = done / Math.max((Date.now() - this.started) / 1000, 0.001);
    const text = `${this.label} ${done}/${this.total}${this.showRate ? ` (${rate.toFixed(0)}/s)` : ''}`;
    if (this.tty) {
      process.stderr.write(`\r${text}   `);
      return;
    }
    const tenth = Math.floor((done / this.total) * 10);
    if (tenth !== this.lastTenth) {
      this.lastTenth = tenth;
      process.stderr.write(`${text}\n`);
    }
  }

  end(): void {
    if (this.tty) process.stderr.write('\n');
  }
}
