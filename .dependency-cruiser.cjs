// The house rules, checked by `npm run check:layers` (part of `npm test`): imports point down the layers, every
// folder is entered through its index.ts, and no import circle spans more than one file. See ARCHITECTURE.md.

/** Imports that would point up a layer (or across, between the plugs and the tools), with why not. */
const layers = [
	["core-below-everything", "^src/core/", "^src/(cli|tui|sdk|plugs|tools)/", "the engine is independent of every front end and of what sessions are assembled from"],
	["plugs-and-tools-below-sdk", "^src/(plugs|tools)/", "^src/(cli|tui|sdk)/", "what a session is assembled from knows nothing of who assembles it"],
	["plugs-apart-from-tools", "^src/plugs/", "^src/tools/", "a plug meets the tools only as definitions, through core"],
	["tools-apart-from-plugs", "^src/tools/", "^src/plugs/", "a tool knows nothing of policy, MCP, extensions or checkpoints"],
	["sdk-below-cli-and-tui", "^src/sdk/", "^src/(cli|tui)/", "the package embedders use carries no command line and no screen"],
	["tui-below-cli", "^src/tui/", "^src/(cli|tools|plugs)/", "the screen learns about tools and plugs only through events and the definitions it is handed"],
	["config-below-session", "^src/core/config/", "^src/core/session/", "configuration is read before any session exists"],
	["engine-below-session", "^src/core/engine/", "^src/core/(session|config)/", "the agent loop (what the seeds specify) knows no session and no settings"],
	["ai-below-engine", "^src/core/ai/", "^src/core/(session|config|engine)/", "the model layer knows no agent"],
	["lib-knows-no-agents", "^src/core/lib/", "^src/core/(session|config|engine|ai)/", "files, text and processes, with no knowledge of agents"],
];

/**
 * One door per folder: an import from outside a folder lands on its index.ts. For each depth of the common parent
 * (`$1`), a file in one of its entries (`$2`) may reach into another child folder only through that folder's index.
 */
const doors = [0, 1, 2, 3, 4, 5].map((depth) => ({
	name: "enter-through-index",
	comment: "A folder is entered through its index.ts, its only door: import from the folder's index, which re-exports what is meant to be used.",
	severity: "error",
	from: { path: `^(src${"/[^/]+".repeat(depth)})/([^/]+)` },
	to: { path: "^$1/(?!$2(?:/|$))[^/]+/.+", pathNot: "^$1/[^/]+/index\\.tsx?$" },
}));

module.exports = {
	forbidden: [
		{
			name: "no-circular",
			comment: "No import circle of more than one file. A dynamic import is not part of one: it runs after every module has loaded.",
			severity: "error",
			from: { path: "^src/" },
			to: { circular: true, viaOnly: { dependencyTypesNot: ["dynamic-import"] } },
		},
		...layers.map(([name, from, to, why]) => ({ name, comment: why, severity: "error", from: { path: from }, to: { path: to } })),
		...doors,
	],
	options: {
		tsPreCompilationDeps: true,
		doNotFollow: { path: "node_modules" },
		exclude: { path: "node_modules" },
		enhancedResolveOptions: { extensionAlias: { ".js": [".ts", ".tsx", ".js"] } },
	},
};
