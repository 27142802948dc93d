// Send one chat turn to a live askdocs server through the real `ai` package and validate it.
//
//   node parse-stream.mjs --sdk ai7 --url URL --token JWT --thread ID --message TEXT
//
// The request goes through the SDK's own DefaultChatTransport (what useChat uses): its
// parser validates every frame against uiMessageChunkSchema; readUIMessageStream then
// assembles the message and fails on protocol errors (e.g. a delta for an unknown part).
// Prints one JSON object on stdout; exits 1 on any validation or protocol error.
import { parseArgs } from "node:util";

const { values: args } = parseArgs({
  options: {
    sdk: { type: "string" },
    url: { type: "string" },
    token: { type: "string" },
    thread: { type: "string" },
    message: { type: "string" },
    "site-id": { type: "string" },
  },
});

const ai = await import(args.sdk);
let header = null;
const dataParts = [];
const chunkTypes = [];

const transport = new ai.DefaultChatTransport({
  api: args.url,
  headers: { Authorization: `Bearer ${args.token}` },
  prepareSendMessagesRequest: ({ messages }) => {
    const last = messages[messages.length - 1];
    const text = last.parts.filter((p) => p.type === "text").map((p) => p.text).join("");
    const body = { threadId: args.thread, message: text };
    if (args["site-id"]) body.siteId = args["site-id"];
    return { body };
  },
  fetch: async (input, init) => {
    const response = await fetch(input, init);
    header = response.headers.get("x-vercel-ai-ui-message-stream");
    return response;
  },
});

function fail(message) {
  process.stdout.write(JSON.stringify({ ok: false, sdk: args.sdk, error: String(message) }) + "\n");
  process.exit(1);
}

try {
  const userMessage = {
    id: "u1",
    role: "user",
    parts: [{ type: "text", text: args.message }],
  };
  const chunks = await transport.sendMessages({
    chatId: args.thread,
    messages: [userMessage],
    trigger: "submit-message",
    messageId: undefined,
    abortSignal: undefined,
  });
  const observed = chunks.pipeThrough(
    new TransformStream({
      transform(chunk, controller) {
        chunkTypes.push(chunk.type);
        if (chunk.type.startsWith("data-")) dataParts.push(chunk);
        controller.enqueue(chunk);
      },
    }),
  );
  let message = null;
  let streamError = null;
  for await (const partial of ai.readUIMessageStream({
    stream: observed,
    terminateOnError: true,
    onError: (error) => {
      streamError = error;
    },
  })) {
    message = partial;
  }
  if (streamError) fail(streamError);
  if (header !== "v1") fail(`x-vercel-ai-ui-message-stream header is ${header}`);
  const text = (message?.parts ?? [])
    .filter((p) => p.type === "text")
    .map((p) => p.text)
    .join("");
  process.stdout.write(
    JSON.stringify({ ok: true, sdk: args.sdk, header, chunkTypes, dataParts, message, text }) +
      "\n",
  );
} catch (error) {
  fail(error?.stack ?? error);
}
