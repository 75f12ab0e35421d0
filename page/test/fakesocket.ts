// A WebSocket that a test opens, feeds and closes: stubbed in with
// `vi.stubGlobal("WebSocket", FakeSocket)`, each socket the page makes is kept in `made`.

export class FakeSocket extends EventTarget {
  static readonly OPEN = 1;
  static made: FakeSocket[] = [];
  readyState = 0;
  sent: unknown[] = [];
  /** Whether the page closed it (close()). */
  closedByPage = false;

  constructor(readonly url: string) {
    super();
    FakeSocket.made.push(this);
  }

  send(text: string): void {
    this.sent.push(JSON.parse(text));
  }

  close(): void {
    this.closedByPage = true;
    this.readyState = 3;
  }

  opened(): void {
    this.readyState = FakeSocket.OPEN;
    this.dispatchEvent(new Event("open"));
  }

  receive(frame: unknown): void {
    this.dispatchEvent(Object.assign(new Event("message"), { data: JSON.stringify(frame) }));
  }

  closed(code: number): void {
    this.readyState = 3;
    this.dispatchEvent(Object.assign(new Event("close"), { code, reason: "" }));
  }
}
