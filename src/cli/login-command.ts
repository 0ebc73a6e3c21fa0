// `loom login [provider] [--device]`, `loom logout [provider]` and `loom mcp login|logout <server>`: sign in to a
// plan or an MCP server, and forget it. Tokens go to auth.json only; what is printed is the page to open, the code
// to type, and the outcome, never a token.
import { createInterface } from "node:readline/promises";
import { errorMessage, type LoginChoice, type LoginInstructions, loginChoices, type LoginMethod, planTitle, signIn, signOut, stripControls } from "../core/index.js";
import type { CliOptions } from "./args.js";
import { EXIT, fail, type RunIo, UsageError } from "./run-io.js";

export async function runLoginCommand(options: CliOptions, home: string, io: RunIo): Promise<number> {
	const login = options.login ?? { device: false };
	try {
		if (options.command === "logout") return logout(home, login.target, io);
		if (options.command === "mcp") {
			const { runMcpLogin } = await import("../plugs/index.js");
			return await runMcpLogin({ verb: login.verb, server: login.target, home, cwd: io.cwd, configs: options.mcpConfig, trust: options.trust, io });
		}
		const choice = login.target === undefined ? await pick(io) : findChoice(login.target);
		if (choice.refused) return fail(io, `loom does not sign in to ${choice.title}: ${choice.refused}`);
		const method: LoginMethod = login.device ? "device" : choice.methods[0]!;
		if (!choice.methods.includes(method)) throw new UsageError(`${choice.title} signs in by ${choice.methods.join(" or ")} only.`);
		const controller = new AbortController();
		const cancel = () => controller.abort();
		process.once("SIGINT", cancel);
		try {
			const signedIn = await signIn(home, choice.provider, method, { show: (instructions) => showInstructions(io, instructions), progress: (text) => say(io, text), signal: controller.signal, env: io.env });
			const account = signedIn.accountId ? ` (account ${signedIn.accountId.slice(0, 8)}…)` : "";
			say(io, `Signed in to ${choice.title}${account}. Use it: loom --provider ${choice.provider}; loom logout ${choice.provider} forgets it.`, io.stdout);
			return EXIT.ok;
		} finally {
			process.removeListener("SIGINT", cancel);
		}
	} catch (error) {
		if (error instanceof UsageError) throw error;
		return fail(io, errorMessage(error));
	}
}

function logout(home: string, provider: string | undefined, io: RunIo): number {
	if (provider !== undefined) findChoice(provider);
	const removed = signOut(home, provider);
	if (removed.length === 0) say(io, provider ? `No ${planTitle(provider)} login to remove.` : "No logins to remove.", io.stdout);
	// planTitle names a plan, and leaves what is not one (an MCP server's URL) as it is.
	else say(io, `Signed out: ${removed.map(planTitle).join(", ")}.`, io.stdout);
	return EXIT.ok;
}

function findChoice(provider: string): LoginChoice {
	const choices = loginChoices();
	const found = choices.find((choice) => choice.provider === provider.trim().toLowerCase());
	if (found) return found;
	throw new UsageError(`No login for "${provider}": choose ${choices.map((choice) => choice.provider).join(", ")}.`);
}

/** The picker: the plans and the refused subscriptions, numbered; a number or a name is read from stdin. */
async function pick(io: RunIo): Promise<LoginChoice> {
	const choices = loginChoices();
	const lines = choices.map((choice, index) => `  ${index + 1}. ${choice.title}${choice.refused ? " (not offered: see why)" : ""}  [${choice.provider}]`);
	io.stderr.write(`Sign in to:\n${lines.join("\n")}\n`);
	io.stderr.write("Number or name: ");
	const reader = createInterface({ input: io.stdin, terminal: false });
	try {
		let answer: string | undefined;
		// The first line typed (or piped); none when stdin ends first.
		for await (const line of reader) {
			answer = line;
			break;
		}
		if (answer === undefined || answer.trim() === "") throw new UsageError(`No plan chosen; name one: loom login ${choices.map((choice) => choice.provider).join("|")}.`);
		const number = Number(answer.trim());
		return Number.isInteger(number) && number >= 1 && number <= choices.length ? choices[number - 1]! : findChoice(answer);
	} finally {
		reader.close();
	}
}

function showInstructions(io: RunIo, { url, code }: LoginInstructions): void {
	if (code) say(io, `Open ${url} in a browser (on any device) and enter the code ${code}`);
	else say(io, `Open this page in a browser on this machine to sign in:\n  ${url}`);
}

/** A line for the user, stripped of terminal escapes (it may carry a server's text). */
function say(io: RunIo, text: string, stream: NodeJS.WriteStream = io.stderr): void {
	stream.write(`${stripControls(text)}\n`);
}
