// One turn the way `useChat` sends it: the real `ai` package's AbstractChat (what useChat
// wraps) with DefaultChatTransport and its DEFAULT request body ({id, messages, trigger,
// messageId}); no prepareSendMessagesRequest.
//
//   node use-chat.mjs --sdk ai7 --url URL --token JWT --thread ID --message TEXT
//
// Prints one JSON object: the chat's status, the error onError received (or null), the
// assistant message (its id is the stream's start.messageId) and onFinish's flags.
import { parseArgs } from "node:util";

const { values: args } = parseArgs({
  options: {
    sdk: { type: "string" },
    url: { type: "string" },
    token: { type: "string" },
    thread: { type: "string" },
    message: { type: "string" },
  },
});

const ai = await import(args.sdk);

// The smallest ChatState: what @ai-sdk/react keeps in React state, kept in plain fields.
class PlainState {
  constructor() {
    this.status = "ready";
    this.error = undefined;
    this.messages = [];
  }
  pushMessage(message) {
    this.messages = [...this.messages, message];
  }
  popMessage() {
    this.messages = this.messages.slice(0, -1);
  }
  replaceMessage(index, message) {
    this.messages = this.messages.map((m, i) => (i === index ? message : m));
  }
  snapshot(thing) {
    return structuredClone(thing);
  }
}

class Chat extends ai.AbstractChat {}

let reported = null;
let finished = null;
const chat = new Chat({
  id: args.thread,
  state: new PlainState(),
  transport: new ai.DefaultChatTransport({
    api: args.url,
    headers: { Authorization: `Bearer ${args.token}` },
  }),
  onError: (error) => {
    reported = String(error?.message ?? error);
  },
  onFinish: (event) => {
    finished = { isError: Boolean(event.isError), isAbort: Boolean(event.isAbort) };
  },
});

try {
  await chat.sendMessage({ text: args.message });
  const assistant = chat.messages.filter((m) => m.role === "assistant").at(-1) ?? null;
  process.stdout.write(
    JSON.stringify({
      ok: true,
      sdk: args.sdk,
      status: chat.status,
      error: reported,
      finished,
      assistant,
    }) + "\n",
  );
} catch (error) {
  process.stdout.write(JSON.stringify({ ok: false, error: String(error?.stack ?? error) }) + "\n");
  process.exit(1);
}
