import { collab, getVersion, receiveTransaction, sendableSteps } from 'prosemirror-collab';
import { Node } from 'prosemirror-model';
import { EditorState } from 'prosemirror-state';
import { Step } from 'prosemirror-transform';
import { collabSchema } from '@scriptorium/domain/protocol/collabSchema';
import { openSocketAt, type TestSocket } from './socket.ts';

/**
 * A prosemirror-collab client in Node, without a view: the protocol the browser's editor speaks
 * (send what is sendable once the last batch is answered, rebase on steps from the log), so socket
 * tests edit a document as two real editors would.
 */
export class CollabPeer {
  state: EditorState;
  socket: TestSocket | undefined;
  /** A batch is out: nothing more is sent until it is answered and the version it named is reached. */
  private inFlight = false;
  private waitFor = 0;
  /** While paused, arriving messages are not applied (a client whose answer is lost on the way). */
  paused = false;
  readonly rejections: any[] = [];
  private handled = 0;

  constructor(
    readonly baseUrl: string,
    readonly docId: string,
    readonly token: string,
    doc: unknown,
    version: number,
    readonly clientId: string,
  ) {
    this.state = EditorState.create({ doc: Node.fromJSON(collabSchema, doc), plugins: [collab({ version, clientID: clientId })] });
  }

  get version(): number {
    return getVersion(this.state);
  }

  get text(): string {
    return this.state.doc.textContent;
  }

  async connect(): Promise<void> {
    this.inFlight = false;
    this.waitFor = 0;
    this.handled = 0;
    const socket = await openSocketAt(this.baseUrl, `/backend/api/collab/ws/${this.docId}`, this.token, { version: String(this.version) });
    this.socket = socket;
    await socket.next((message) => message.type === 'collab.ready');
    this.pump();
  }

  /** Types at the end of the first paragraph, or at `pos`. */
  type(text: string, pos = this.state.doc.firstChild!.nodeSize - 1): void {
    this.state = this.state.apply(this.state.tr.insertText(text, pos));
  }

  /** Applies whatever arrived, then sends what is sendable. */
  pump(): void {
    const socket = this.socket;
    if (!socket || this.paused) return;
    for (; this.handled < socket.received.length; this.handled++) {
      const message = socket.received[this.handled];
      if (message.type === 'collab.steps') {
        const steps = message.steps.map((json: unknown) => Step.fromJSON(collabSchema, json));
        this.state = this.state.apply(receiveTransaction(this.state, steps, steps.map(() => message.client_id)));
      } else if (message.type === 'collab.accepted') {
        this.inFlight = false;
        this.waitFor = message.version;
      } else if (message.type === 'collab.rejected') {
        this.rejections.push(message);
        this.inFlight = false;
        this.waitFor = message.code === 'collab.version_behind' ? message.version : this.waitFor;
        if (message.code !== 'collab.version_behind') this.waitFor = Number.POSITIVE_INFINITY;
      }
    }
    const sendable = sendableSteps(this.state);
    if (sendable && !this.inFlight && this.version >= this.waitFor) {
      this.inFlight = true;
      socket.send({ type: 'collab.steps', version: sendable.version, steps: sendable.steps.map((step) => step.toJSON()), client_id: String(sendable.clientID) });
    }
  }

  /** Pumps until nothing is left to send and the document is at `version`. */
  async settle(version: () => Promise<number>, timeoutMs = 10_000): Promise<void> {
    const until = Date.now() + timeoutMs;
    while (Date.now() < until) {
      this.pump();
      if (!sendableSteps(this.state) && this.version === (await version())) return;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new Error(`peer ${this.clientId} did not settle: at ${this.version}, sendable ${JSON.stringify(sendableSteps(this.state)?.steps.length ?? 0)}`);
  }

  close(): void {
    this.socket?.close();
    this.socket = undefined;
  }
}
