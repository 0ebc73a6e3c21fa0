// `/login [provider] [--device]` in a session: the same sign-in as `loom login`, its picker a dialog, its
// instructions (the page to open, the code to type) notices. A model of the plan signed in to is picked up at once.
import type { AgentSession, CommandSession, LoginChoice, LoginMethod } from "../core/index.js";
import { loginChoices, signIn } from "../core/index.js";

export function installLoginCommand(session: AgentSession, home: string): void {
	session.commands.register({
		name: "login",
		argsHint: "[chatgpt|github-copilot] [--device]",
		description: "sign in to a ChatGPT or GitHub Copilot plan instead of an API key",
		source: "builtin",
		async handler(args, ctx) {
			const words = args.split(/\s+/).filter(Boolean);
			const device = words.includes("--device");
			const named = words.find((word) => word !== "--device");
			const choices = loginChoices();
			let choice: LoginChoice | undefined;
			if (named) {
				choice = choices.find((candidate) => candidate.provider === named.toLowerCase());
				if (!choice) return ctx.notify("error", `No login for "${named}": choose ${choices.map((candidate) => candidate.provider).join(", ")}.`);
			} else {
				if (!ctx.ui?.interactive) return ctx.notify("error", `Name the plan: /login ${choices.filter((candidate) => !candidate.refused).map((candidate) => candidate.provider).join(" or ")}.`);
				choice = await ctx.ui.select(
					{ title: "Sign in to" },
					choices.map((candidate) => ({ label: candidate.title, value: candidate, description: candidate.refused ? "not offered" : candidate.provider })),
				);
				if (!choice) return;
			}
			if (choice.refused) return ctx.notify("error", `loom does not sign in to ${choice.title}: ${choice.refused}`);
			const method: LoginMethod = device || !choice.methods.includes("browser") ? "device" : "browser";
			if (!choice.methods.includes(method)) return ctx.notify("error", `${choice.title} signs in by ${choice.methods.join(" or ")} only.`);
			try {
				await signIn(home, choice.provider, method, {
					show: ({ url, code }) =>
						ctx.notify("info", code ? `Open ${url} in a browser (on any device) and enter the code ${code}` : `Open this page in a browser on this machine to sign in: ${url}`),
				});
			} catch (error) {
				return ctx.notify("error", (error as Error).message);
			}
			const session = ctx.session as CommandSession;
			// The model in use, if it is the plan's, takes the new login (its token, account and endpoint).
			if (session.model?.provider === choice.provider) await session.setModel(`${choice.provider}/${session.model.id}`);
			ctx.notify("info", `Signed in to ${choice.title}. Its models: /model ${choice.provider}/<id> (loom --list-models ${choice.provider}).`);
		},
	});
}
