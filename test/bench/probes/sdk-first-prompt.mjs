// One SDK program's first prompt, in a fresh process: import the package's entry, create a session against the
// scripted server (its OpenAI endpoint), send one prompt, print the answer, exit. Prints one JSON line with the
// import time and the time to the answer, both from the process's start (performance.timeOrigin).
//   node sdk-first-prompt.mjs '{"agent":"loom"|"pi","entry":"<file or URL>","baseUrl":"…","agentDir":"…"}'
import { performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";

const input = JSON.parse(process.argv[2]);
const importStart = performance.now();
const sdk = await import(pathToFileURL(input.entry).href);
const imported = performance.now();

let session;
if (input.agent === "loom") {
	({ session } = await sdk.createAgentSession({
		sessionManager: sdk.SessionManager.inMemory(),
		provider: "openai",
		model: "scripted",
		baseUrl: input.baseUrl,
		apiKey: "k",
	}));
} else {
	// Pi reads the custom provider (the same server) from models.json in its agent directory.
	const authStorage = sdk.AuthStorage.create(`${input.agentDir}/auth.json`);
	const modelRegistry = sdk.ModelRegistry.create(authStorage, `${input.agentDir}/models.json`);
	const model = modelRegistry.find("bench", "scripted");
	if (!model) throw new Error("Pi found no bench/scripted model");
	({ session } = await sdk.createAgentSession({ agentDir: input.agentDir, authStorage, modelRegistry, model, sessionManager: sdk.SessionManager.inMemory() }));
}
await session.prompt("hi");
const answered = performance.now();
const last = session.messages.at(-1);
const text = (last?.content ?? []).filter((part) => part.type === "text").map((part) => part.text).join("");
if (text !== "hello") throw new Error(`unexpected answer: ${JSON.stringify(last)}`);
console.log(JSON.stringify({ importStartMs: importStart, importMs: imported - importStart, answerMs: answered }));
session.dispose();
process.exit(0);
