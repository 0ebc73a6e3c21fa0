// Bundles the `loom` command and the package's entry (`import … from "loom"`, dist/bundle/sdk.js) into a few files:
// Node 20 spends most of a cold start resolving and loading the hundreds of small modules of the SDKs and TypeBox,
// so one bundle (with lazy chunks for each SDK and the screen) starts several times faster than the plain tsc
// output. The two entries share their chunks: the command's sessions are made by the same modules an SDK program
// loads, and an extension's `import … from "loom"` is the entry module itself (one instance, whichever started).
import { readFileSync } from "node:fs";
import { relative } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { defineConfig } from "rolldown";

/** The project's folder: the ids of modules made up here name their files from it (the bundle names its modules' ids). */
const ROOT = fileURLToPath(new URL(".", import.meta.url));

/**
 * Libraries (React, its reconciler, the scheduler) pick their production or development build from NODE_ENV
 * when loaded. Bundled, loom always takes the production build: the development one checks every render,
 * cost several times the CPU on a fast stream, and its code alone doubled what the screen has to load. Every
 * module reads NODE_ENV as "production" (loom's own screen loader then leaves the environment alone); only
 * reads are replaced, so the user's NODE_ENV still reaches the commands loom runs.
 */
const productionBuilds = {
	name: "production-builds",
	transform: {
		filter: { code: "process.env.NODE_ENV" },
		handler(code) {
			return code.replace(/process\.env\.NODE_ENV(?!\s*=[^=])/g, '"production"');
		},
	},
};

/**
 * Ink's layout engine (yoga, WebAssembly) carries its binary as base64 and, where fetch exists, loads it through a
 * fetch of a data: URL: before the first frame that starts Node's fetch implementation and copies the binary
 * several times. Its loader's own path for environments without fetch decodes the base64 directly; it is taken
 * always (a build error says so if yoga's loader changes).
 */
const yogaWithoutFetch = {
	name: "yoga-without-fetch",
	transform: {
		filter: { id: /yoga-wasm-base64-esm\.js$/ },
		handler(code) {
			const check = '"function"!=typeof fetch';
			if (!code.includes(check)) this.error("yoga-layout's loader no longer checks for fetch as rolldown.config.mjs expects: update the plugin.");
			return code.replaceAll(check, "true");
		},
	},
};

/**
 * Ink draws nothing live, only the last frame at exit, when the CI variable is set (the is-in-ci package). Ink runs
 * only as loom's screen, for a person at a terminal, so that variable (set in a shell by a CI tool, or exported in a
 * container image) must not blank the screen: Ink is told it never runs in CI.
 */
const inkNeverInCi = {
	name: "ink-never-in-ci",
	resolveId: {
		filter: { id: /^is-in-ci$/ },
		handler: () => "\0never-in-ci",
	},
	load: {
		filter: { id: /^\0never-in-ci$/ },
		handler: () => "export default false;",
	},
};

/**
 * Ink takes one function, throttle, from es-toolkit's compat entry: that entry also builds a lodash-like object of
 * every function, which no tree-shaking can drop, and it was a third of what the screen loads before its first
 * frame. The import is pointed at the function's own module (a build error says so if Ink's import changes).
 */
const inkThrottleOnly = {
	name: "ink-throttle-only",
	transform: {
		filter: { id: /[\\/]ink[\\/]build[\\/]ink\.js$/ },
		handler(code) {
			const from = "import { throttle } from 'es-toolkit/compat';";
			if (!code.includes(from)) this.error("Ink no longer imports throttle from es-toolkit/compat as rolldown.config.mjs expects: update the plugin.");
			return code.replace(from, "import throttle from 'es-toolkit/compat/throttle';");
		},
	},
};

/**
 * Ink builds every frame from scratch: each row cut into styled cells and joined again, each node's text
 * measured and sanitised again, though while an answer streams nearly all of a frame is the frame before.
 * Ink's own functions are put behind caches where Ink imports them (src/tui/screen/row-cached-output.ts,
 * memoized-text.ts, styled-chars-text.ts): the same frames, at a fraction of the cost. A build error says so if
 * Ink no longer imports one of them as expected. A cache with `name` replaces that named export of the module
 * (the rest is the module's own); the others replace its default export.
 */
const inkCaches = [
	{ importer: /[\\/]ink[\\/]build[\\/]renderer\.js$/, source: "./output.js", module: "row-cached-output.ts", wrap: "rowCachedOutput" },
	{ importer: /[\\/]ink[\\/]build[\\/]render-node-to-output\.js$/, source: "widest-line", module: "memoized-text.ts", wrap: "memoizedText" },
	{ importer: /[\\/]ink[\\/]build[\\/]squash-text-nodes\.js$/, source: "./sanitize-ansi.js", module: "memoized-text.ts", wrap: "memoizedText" },
	{ importer: /[\\/]ink[\\/]build[\\/]output\.js$/, source: "@alcalzone/ansi-tokenize", module: "styled-chars-text.ts", wrap: "styledCharsText", name: "styledCharsToString" },
];
const cachedInk = new Set();
const inkWithCaches = {
	name: "ink-with-caches",
	buildStart() {
		cachedInk.clear();
	},
	resolveId: {
		filter: { id: /^(\.\/output\.js|widest-line|\.\/sanitize-ansi\.js|@alcalzone\/ansi-tokenize)$/ },
		async handler(source, importer) {
			const index = inkCaches.findIndex((cache) => cache.source === source && importer !== undefined && cache.importer.test(importer));
			if (index === -1) return null;
			const original = await this.resolve(source, importer, { skipSelf: true });
			if (!original) return null;
			cachedInk.add(index);
			return `\0ink-cache:${index}:${relative(ROOT, original.id)}`;
		},
	},
	load: {
		filter: { id: /^\0ink-cache:/ },
		handler(id) {
			const [, index, fromRoot] = /^\0ink-cache:(\d+):(.*)$/s.exec(id);
			const original = fileURLToPath(new URL(fromRoot, pathToFileURL(ROOT)));
			const cache = inkCaches[Number(index)];
			const wrapper = fileURLToPath(new URL(`./src/tui/screen/${cache.module}`, import.meta.url));
			if (cache.name) {
				return `import * as original from ${JSON.stringify(original)};\nimport { ${cache.wrap} } from ${JSON.stringify(wrapper)};\nexport * from ${JSON.stringify(original)};\nexport const ${cache.name} = ${cache.wrap}(original);\n`;
			}
			return `import original from ${JSON.stringify(original)};\nimport { ${cache.wrap} } from ${JSON.stringify(wrapper)};\nexport default ${cache.wrap}(original);\n`;
		},
	},
	buildEnd() {
		const missing = inkCaches.filter((_, index) => !cachedInk.has(index));
		if (missing.length > 0) this.error(`Ink no longer imports ${missing.map((cache) => cache.source).join(", ")} as rolldown.config.mjs expects: update the ink-with-caches plugin.`);
	},
};

/**
 * The SDKs build each request with fetch's Headers (and check bodies against its FormData), and the first touch of
 * any of fetch's globals loads Node's whole fetch implementation, though loom sends through node:http: before the
 * first request could go out. Their modules see loom's stand-ins instead (src/core/ai/providers/sdk-fetch-globals.ts),
 * so fetch loads once the request is on its way. A build error says so if the SDKs stop using those names.
 */
const SDK_FETCH_STAND_INS = fileURLToPath(new URL("./src/core/ai/providers/sdk-fetch-globals.ts", import.meta.url));
const sdkFetchModules = new Set();
const sdkFetchGlobals = {
	name: "sdk-fetch-globals",
	buildStart() {
		sdkFetchModules.clear();
	},
	transform: {
		filter: { id: /[\\/]node_modules[\\/](?:openai|@anthropic-ai[\\/]sdk)[\\/].+\.mjs$/, code: /Headers|FormData/ },
		handler(code, id) {
			const names = [
				["Headers", "SdkHeaders"],
				["FormData", "SdkFormData"],
			].filter(([name]) => new RegExp(`(?<![.\\w$])${name}(?![\\w$])`).test(code));
			if (names.length === 0) return null;
			sdkFetchModules.add(/(?:openai|@anthropic-ai[\\/]sdk)[\\/].+$/.exec(id)[0].replaceAll("\\", "/"));
			const imports = names.map(([name, standIn]) => `${standIn} as ${name}`).join(", ");
			return { code: `import { ${imports} } from ${JSON.stringify(SDK_FETCH_STAND_INS)};\n${code}`, map: null };
		},
	},
	buildEnd() {
		const expected = ["openai/internal/headers.mjs", "openai/client.mjs", "@anthropic-ai/sdk/internal/headers.mjs", "@anthropic-ai/sdk/client.mjs"];
		const missing = expected.filter((module) => !sdkFetchModules.has(module));
		if (missing.length > 0) this.error(`${missing.join(", ")} no longer use fetch's Headers or FormData as rolldown.config.mjs expects: update the sdk-fetch-globals plugin.`);
	},
};

/** The names an ES module file exports, through its `export * from` lines too. */
function exportedNames(file) {
	const code = readFileSync(file, "utf8");
	const names = new Set();
	for (const match of code.matchAll(/^export (?:class|function|const|let) ([A-Za-z_$][\w$]*)/gm)) names.add(match[1]);
	for (const match of code.matchAll(/^export \{([^}]*)\}/gm)) {
		for (const part of match[1].split(",")) {
			const name = part.trim().split(/\s+as\s+/).pop();
			if (name) names.add(name);
		}
	}
	for (const match of code.matchAll(/^export \* from "([^"]+)"/gm)) {
		for (const name of exportedNames(fileURLToPath(new URL(match[1], pathToFileURL(file))))) names.add(name);
	}
	return names;
}

/**
 * The OpenAI client constructs every API resource it knows (files, images, audio, fine-tuning, …: most of its code),
 * and loom calls two: Chat Completions and Responses. The others are bundled as empty classes of the same names, so
 * the first request does not wait for their code to load. Only the client's own imports of them are replaced (in
 * client.mjs and resources/index.mjs); a resource a kept one imports stays whole. A build error says so if the client
 * stops importing them as expected.
 */
const OPENAI_RESOURCES_KEPT = /^(?:chat\/|responses\/|shared\.mjs$|index\.mjs$)/;
const openaiStubbed = new Set();
const openaiUnusedResources = {
	name: "openai-unused-resources",
	buildStart() {
		openaiStubbed.clear();
	},
	resolveId: {
		filter: { id: /^\.\/[a-z-]+(?:\/[a-z-]+)*\.mjs$/ },
		async handler(source, importer) {
			const from = importer && /[\\/]node_modules[\\/]openai[\\/](client|resources[\\/]index)\.mjs$/.exec(importer)?.[1];
			if (!from) return null;
			// The resource's path under openai/resources/.
			const resource = from === "client" ? /^\.\/resources\/(.+)$/.exec(source)?.[1] : source.slice("./".length);
			if (!resource || OPENAI_RESOURCES_KEPT.test(resource)) return null;
			const original = await this.resolve(source, importer, { skipSelf: true });
			if (!original) return null;
			openaiStubbed.add(resource);
			return `\0openai-unused:${relative(ROOT, original.id)}`;
		},
	},
	load: {
		filter: { id: /^\0openai-unused:/ },
		handler(id) {
			const names = exportedNames(fileURLToPath(new URL(id.slice("\0openai-unused:".length), pathToFileURL(ROOT))));
			return [...names].map((name) => `export class ${name} {\n\tconstructor(client) {\n\t\tthis._client = client;\n\t}\n}\n`).join("");
		},
	},
	buildEnd() {
		if (openaiStubbed.size < 10) this.error("The OpenAI client no longer imports its resources as rolldown.config.mjs expects: update the openai-unused-resources plugin.");
	},
};

export default defineConfig({
	input: { loom: "src/cli/main.ts", sdk: "src/sdk/index.ts" },
	platform: "node",
	// Ink and React are bundled like everything else (loaded from node_modules, Node lexed every CommonJS
	// module of React for its exports, half of the screen's start). Ink imports the React devtools only when
	// DEV=true; they are not installed. The shell parser is WebAssembly that finds its .wasm files beside its own
	// module, and jiti (the extension loader) loads only when an extension exists and finds its own files at run
	// time: both stay in node_modules.
	external: ["react-devtools-core", /^@vscode\/tree-sitter-wasm(\/|$)/, /^jiti(\/|$)/],
	plugins: [productionBuilds, yogaWithoutFetch, inkNeverInCi, inkThrottleOnly, inkWithCaches, sdkFetchGlobals, openaiUnusedResources],
	// A folder's index.ts is its door: re-exports, and code of its own that runs nothing as it loads. Marked free of
	// side effects, an import through a door is traced to the module that defines the name, so a door on the path of
	// `loom --version` does not pull every module behind it into the chunks that load first.
	treeshake: { moduleSideEffects: (id, external) => external || !/[\\/]src[\\/].+[\\/]index\.ts$/.test(id) },
	// An entry exports what its source exports (the package's public names); chunks that leave their dependencies
	// out (codeSplitting below) need the bundler free to export more from an entry than that.
	preserveEntrySignatures: "allow-extension",
	output: {
		dir: "dist/bundle",
		format: "esm",
		entryFileNames: "[name].js",
		chunkFileNames: "chunks/[name]-[hash].js",
		cleanDir: true,
		// Every chunk on a run's path is read and compiled before it runs: plain ASCII is decoded and scanned faster
		// than text with a character beyond it (which makes V8 hold the whole source at two bytes a character), and
		// doc comments are bytes no run reads (the package's types carry them). Licence and annotation comments stay.
		charset: "ascii",
		comments: { legal: true, annotation: true, jsdoc: false },
		// Every path of loom (even `--version`) uses a few of core/lib's helpers: each is a chunk of its own, so a path
		// loads only the helpers it uses, not those that happen to share its chunk. The tools' names table is read by
		// `--help`; on its own it stays out of the chunk holding the tools' code. So does the editor's first frame, drawn
		// before the rest of the screen loads.
		codeSplitting: {
			includeDependenciesRecursively: false,
			groups: [
				{ name: (id) => /[\\/]src[\\/]core[\\/]lib[\\/](?:.+[\\/])?([^\\/]+)\.ts$/.exec(id)?.[1] ?? null },
				{ name: "tool-names", test: /builtin-tool-names\.ts$/ },
				{ name: "first-frame", test: /[\\/]src[\\/]tui[\\/](?:screen[\\/]first-frame|text[\\/]color-refused)\.ts$/ },
			],
		},
	},
});
