// A press in progress holds the table's redraws back: a frame that comes between a finger (or a
// mouse button) going down and coming up is drawn right after that press's click, so what was
// pressed is still there, where it was, when it is released (a redraw in between could move it
// from under the finger, and the click would reach no button).

/** The longest a held press holds redraws back (a finger resting on the table). */
export const HOLD_MS = 1000;

export class PressHold {
  private down = false;
  private since = 0;
  private waiting = false;

  /** ``target`` is where presses start (the page's root); ``redraw`` draws a held frame. */
  constructor(
    target: EventTarget,
    private readonly redraw: () => void,
    private readonly now: () => number = () => Date.now(),
    ends: EventTarget = window,
    private readonly later: (run: () => void) => void = (run) => window.setTimeout(run, 0),
  ) {
    target.addEventListener("pointerdown", () => {
      this.down = true;
      this.since = this.now();
    }, true);
    const up = (): void => {
      if (!this.down) return;
      this.down = false;
      if (!this.waiting) return;
      this.waiting = false;
      // After the click that this release makes (it comes after the pointerup, in the same task).
      this.later(this.redraw);
    };
    ends.addEventListener("pointerup", up, true);
    ends.addEventListener("pointercancel", up, true);
  }

  /** True when a redraw must wait for the press to end (it is drawn then, by ``redraw``). */
  holds(): boolean {
    if (!this.down || this.now() - this.since > HOLD_MS) return false;
    this.waiting = true;
    return true;
  }
}
