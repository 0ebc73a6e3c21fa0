// One prompt, the answer printed. The session uses your settings and models.json (~/.loom, or $LOOM_HOME), the
// built-in tools and the default system prompt, exactly as `loom -p` would.
//   npx jiti examples/01-prompt.ts "What does this project do?"
import { createAgentSession, SessionManager } from "loom";

const prompt = process.argv.slice(2).join(" ") || "What does this project do? Answer in two sentences.";

const { session } = await createAgentSession({ sessionManager: SessionManager.inMemory() });
try {
	const outcome = await session.runPrompt(prompt);
	const answer = outcome.message?.content.flatMap((part) => (part.type === "text" ? [part.text] : [])).join("") ?? "";
	console.log(answer);
	if (outcome.status !== "done") {
		console.error(`The run ended with ${outcome.status}: ${outcome.errorMessage ?? "no message"}`);
		process.exitCode = 1;
	}
} finally {
	session.dispose();
}
