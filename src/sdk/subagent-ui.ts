// How a child session asks and tells the user: through its parent's ui as it is at the moment (the screen
// installs its own after the assembly), every question and notice carrying the child's agent name, so an
// approval asked inside a subagent says whose call it is.
import type { SessionUi } from "../core/index.js";

export function subagentUi(parent: () => SessionUi, agent: string): SessionUi {
	const named = (title: string) => `${agent}: ${title}`;
	return {
		get interactive() {
			return parent().interactive;
		},
		notify: (level, text) => parent().notify(level, named(text)),
		select: (options, choices) => parent().select({ ...options, title: named(options.title) }, choices),
		confirm: (title, message, signal) => parent().confirm(named(title), message, signal),
		input: (title, options) => parent().input(named(title), options),
	};
}
