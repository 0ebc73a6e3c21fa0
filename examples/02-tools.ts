// A tool of your own, and what happens when it fails: a thrown error becomes an error tool result, which the
// model reads like any result and can act on (here: it retries with a city the tool knows).
//   npx jiti examples/02-tools.ts "What's the weather in Atlantis?"
import { createAgentSession, SessionManager, Type, type ToolDefinition } from "loom";

const TEMPERATURES: Record<string, number> = { paris: 14, tokyo: 21, lima: 19 };

const parameters = Type.Object({ city: Type.String({ description: "A city name" }) });

const weather: ToolDefinition<typeof parameters> = {
	name: "get_weather",
	label: "Weather",
	description: "Today's temperature in a city, in degrees Celsius.",
	parameters,
	async execute(_toolCallId, { city }) {
		const celsius = TEMPERATURES[city.toLowerCase()];
		// Throw with a message the model can act on: it becomes the call's error result.
		if (celsius === undefined) throw new Error(`Unknown city "${city}". Known cities: Paris, Tokyo, Lima.`);
		return { content: [{ type: "text", text: `${city}: ${celsius} °C` }], details: { celsius } };
	},
};

const { session } = await createAgentSession({ sessionManager: SessionManager.inMemory(), tools: [weather] });
try {
	session.subscribe((event) => {
		if (event.type === "message_end" && event.message.role === "toolResult") {
			const text = event.message.content.map((part) => (part.type === "text" ? part.text : "[image]")).join("");
			console.log(`${event.message.isError ? "error result" : "result"} for the model: ${text}`);
		}
	});
	await session.prompt(process.argv.slice(2).join(" ") || "What's the weather in Atlantis?");
	const last = session.messages.at(-1);
	if (last?.role === "assistant") console.log(`answer: ${last.content.flatMap((part) => (part.type === "text" ? [part.text] : [])).join("")}`);
} finally {
	session.dispose();
}
